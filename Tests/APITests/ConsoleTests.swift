import Foundation
import HTTPTypes
import HealthwheelCore
import HummingbirdTesting
import Services
import TestSupport
import Testing

@testable import Console

/// The web console over real HTTP (Tests/Browser drives it in a real browser): sessions, CSRF, the security
/// headers, object-level authorization, forms that keep what the trainer did not change.
@Suite struct ConsoleTests {
    @Test func signingInSetsAnHttpOnlyLaxSessionCookieSecureOnlyOverTLS() async throws {
        try await withAPI { fixture, client in
            let admin = try await fixture.trainer(in: try await fixture.company(), role: .admin)
            let (plain, session) = try await client.signIn(admin.email, admin.password)
            #expect(plain.status == .seeOther && plain.headers[.location] == "/clients")
            let line = try #require(ConsoleForms.setCookieLine(plain, "hw_session"))
            #expect(line.contains("HttpOnly") && line.contains("SameSite=Lax") && line.contains("Path=/") && !line.contains("Secure"), "\(line)")
            #expect(session != nil)
            let (overTLS, _) = try await client.signIn(admin.email, admin.password, headers: [HTTPField.Name("X-Forwarded-Proto")!: "https"])
            #expect(ConsoleForms.setCookieLine(overTLS, "hw_session")?.contains("Secure") == true)
        }
    }

    @Test func everyPageCarriesTheSecurityHeaders() async throws {
        try await withAPI { fixture, client in
            let admin = try await fixture.trainer(in: try await fixture.company(), role: .admin)
            let session = try #require(try await client.signIn(admin.email, admin.password).session)
            for (uri, cookie) in [
                ("/sign-in", nil), ("/clients", session.cookie), ("/admin/theme", session.cookie), ("/clients/\(UUID())", session.cookie),
            ] {
                let response = try await client.page(.get, uri, cookie: cookie)
                let policy = response.headers[.contentSecurityPolicy] ?? ""
                #expect(
                    policy.contains("default-src 'self'") && policy.contains("script-src 'self'") && policy.contains("frame-ancestors 'none'"),
                    "\(uri)"
                )
                #expect(!policy.contains("unsafe-inline"), "\(uri): \(policy)")
                #expect(response.headers[.xContentTypeOptions] == "nosniff", "\(uri)")
                #expect(response.headers[HTTPField.Name("Referrer-Policy")!] == "same-origin", "\(uri)")
                #expect(!response.text.contains("<script>") && !response.text.contains(" style=\""), "\(uri): no inline script or style")
            }
        }
    }

    @Test func aFormPostedWithoutItsTokenIsRefused403AndChangesNothing() async throws {
        try await withAPI { fixture, client in
            let company = try await fixture.company()
            let admin = try await fixture.trainer(in: company, role: .admin)
            let session = try #require(try await client.signIn(admin.email, admin.password).session)
            let missing = try await client.page(.post, "/clients", cookie: session.cookie, form: [("givenName", "Forged")])
            #expect(missing.status == .forbidden && missing.headers[.contentType]?.hasPrefix("text/html") == true)
            let wrong = try await client.page(.post, "/clients", cookie: session.cookie, form: [("givenName", "Forged"), ("csrf", "not-it")])
            #expect(wrong.status == .forbidden)
            let otherOrigin = try await client.page(
                .post,
                "/clients",
                cookie: session.cookie,
                form: [("givenName", "Forged"), ("csrf", session.csrf)],
                headers: [.origin: "https://evil.example"]
            )
            #expect(otherOrigin.status == .forbidden)
            #expect(try await fixture.store.clients.listVersion(of: company.id) == 0, "no client was added")
            let real = try await client.page(.post, "/clients", cookie: session.cookie, form: [("givenName", "Real"), ("csrf", session.csrf)])
            #expect(real.status == .seeOther)
            #expect(try await fixture.store.clients.listVersion(of: company.id) > 0)
        }
    }

    @Test func theSignInFormNeedsItsOwnTokenAndSharesTheLoginLimit() async throws {
        try await withAPI(limits: LoginRateLimiter.Policy(window: 900, failuresPerEmail: 2, failuresPerAddress: 100)) { fixture, client in
            let admin = try await fixture.trainer(in: try await fixture.company(), role: .admin)
            let forged = try await client.page(.post, "/sign-in", form: [("email", admin.email), ("password", admin.password)])
            #expect(forged.status == .forbidden && ConsoleForms.setCookie(forged, "hw_session") == nil)
            // Failures through the API count for the console, and the other way round.
            _ = try await client.login(admin.email, "wrong")
            let (wrong, _) = try await client.signIn(admin.email, "wrong again")
            #expect(wrong.status == .unauthorized)
            let (limited, session) = try await client.signIn(admin.email, admin.password)
            #expect(limited.status == .tooManyRequests && session == nil && limited.headers[.retryAfter] != nil)
        }
    }

    @Test func anotherCompanysClientIsA404PageAsAMissingOne() async throws {
        try await withAPI { fixture, client in
            let mine = try await fixture.trainer(in: try await fixture.company(), role: .admin)
            let theirs = try await fixture.trainer(in: try await fixture.company(), role: .admin)
            let theirClient = try await client.createClient(given: "Their", family: "Client", token: try await client.token(for: theirs))
            let session = try #require(try await client.signIn(mine.email, mine.password).session)
            for path in [
                "", "/edit", "/screening", "/results", "/results/new", "/report", "/report.html", "/report.pdf", "/wheel.svg", "/data", "/export.zip",
            ] {
                let foreign = try await client.page(.get, "/clients/\(theirClient)\(path)", cookie: session.cookie)
                let missing = try await client.page(.get, "/clients/\(UUID().uuidString.lowercased())\(path)", cookie: session.cookie)
                #expect(foreign.status == .notFound && missing.status == .notFound, "\(path): \(foreign.status) \(missing.status)")
                #expect(foreign.headers[.contentType] == missing.headers[.contentType], "\(path): the same page either way")
                #expect(!foreign.text.contains("Their"), "\(path): nothing of the client shows")
            }
            let edit = try await client.page(
                .post,
                "/clients/\(theirClient)",
                cookie: session.cookie,
                form: [("givenName", "Mine"), ("csrf", session.csrf)]
            )
            #expect(edit.status == .notFound)
            let theirId = try #require(UUID(uuidString: theirClient))
            let stored = try await fixture.store.clients.find(theirId, in: theirs.trainer.companyId)
            #expect(stored?.client.givenName == "Their")
        }
    }

    @Test func aSessionEndsAfterIdleTimeAndStaysWhileUsed() async throws {
        try await withAPI { fixture, client in
            let admin = try await fixture.trainer(in: try await fixture.company(), role: .admin)
            let session = try #require(try await client.signIn(admin.email, admin.password).session)
            for _ in 0..<4 {
                fixture.clock.advance(by: 20 * 60)
                #expect(try await client.page(.get, "/clients", cookie: session.cookie).status == .ok, "used within 30 minutes: kept")
            }
            fixture.clock.advance(by: 31 * 60)
            let idle = try await client.page(.get, "/clients", cookie: session.cookie)
            #expect(idle.status == .seeOther && idle.headers[.location]?.hasPrefix("/sign-in") == true)
            #expect(ConsoleForms.setCookieLine(idle, "hw_session")?.contains("Max-Age=0") == true, "the dead cookie is cleared")
        }
    }

    @Test func signingOutAndChangingThePasswordEndTheSession() async throws {
        try await withAPI { fixture, client in
            let admin = try await fixture.trainer(in: try await fixture.company(), role: .admin)
            let first = try #require(try await client.signIn(admin.email, admin.password).session)
            let out = try await client.page(.post, "/sign-out", cookie: first.cookie, form: [("csrf", first.csrf)])
            #expect(out.status == .seeOther && out.headers[.location] == "/sign-in?notice=signedOut")
            #expect(try await client.page(.get, "/clients", cookie: first.cookie).status == .seeOther)

            let here = try #require(try await client.signIn(admin.email, admin.password).session)
            let elsewhere = try #require(try await client.signIn(admin.email, admin.password).session)
            let apiToken = try await client.token(for: admin)
            let changed = try await client.page(
                .post,
                "/account/password",
                cookie: here.cookie,
                form: [("csrf", here.csrf), ("currentPassword", admin.password), ("password", "another long enough password")]
            )
            #expect(changed.status == .seeOther && changed.headers[.location] == "/sign-in?notice=passwordChanged", "\(changed.text)")
            #expect(try await client.page(.get, "/sign-in?notice=passwordChanged").text.contains("Password changed"))
            for cookie in [here.cookie, elsewhere.cookie] {
                #expect(try await client.page(.get, "/clients", cookie: cookie).status == .seeOther, "every console session ends")
            }
            #expect(try await client.send(.get, "/v1/me", token: apiToken).status == .unauthorized, "and the API's sessions")
            #expect(try await client.signIn(admin.email, "another long enough password").session != nil)
        }
    }

    @Test func signInComesBackToThePageAskedForButNeverLeavesTheServer() async throws {
        try await withAPI { fixture, client in
            let admin = try await fixture.trainer(in: try await fixture.company(), role: .admin)
            let asked = try await client.page(.get, "/admin/audit?action=client.created")
            let location = try #require(asked.headers[.location])
            #expect(asked.status == .seeOther && location.hasPrefix("/sign-in?next="))
            #expect(location.dropFirst("/sign-in?next=".count).removingPercentEncoding == "/admin/audit?action=client.created", "\(location)")
            for next in ["//evil.example/x", "https://evil.example", "/\\evil.example"] {
                let form = try await client.page(.get, "/sign-in")
                let cookie = try #require(ConsoleForms.setCookie(form, "hw_signin"))
                let token = try #require(ConsoleForms.hidden("csrf", in: form.text))
                let response = try await client.page(
                    .post,
                    "/sign-in",
                    cookie: "hw_signin=\(cookie)",
                    form: [("csrf", token), ("email", admin.email), ("password", admin.password), ("next", next)]
                )
                #expect(response.headers[.location] == "/clients", "\(next)")
            }
        }
    }

    @Test func anImperialFormSentBackUntouchedKeepsTheStoredValuesExact() async throws {
        try await withAPI { fixture, client in
            let admin = try await fixture.trainer(in: try await fixture.company(), role: .admin)
            let token = try await client.token(for: admin)
            let shipped = try Data(contentsOf: RepositoryRoot.url.appendingPathComponent("Themes/default.json"))
            var theme = try #require(try JSONSerialization.jsonObject(with: shipped) as? [String: Any])
            theme["units"] = "imperial"
            theme["id"] = "own"
            theme["logo"] = nil
            let set = try await client.send(.put, "/v1/theme", token: token, json: jsonString(["theme": theme]))
            #expect(set.status == .ok, "\(set.text)")
            let id = try await client.createClient(given: "Exact", family: "Values", extra: ["height": 1.7512, "mass": 70.123], token: token)
            let session = try #require(try await client.signIn(admin.email, admin.password).session)
            let form = try await client.page(.get, "/clients/\(id)/edit", cookie: session.cookie)
            let shown = ["heightFt", "heightIn", "massLb"].map { name in ConsoleForms.value(name, in: form.text) ?? "" }
            #expect(shown == ["5", "8.9", "154.6"], "\(shown)")
            var fields = [("csrf", session.csrf), ("givenName", "Exact"), ("familyName", "Values"), ("notes", "now with notes")]
            fields += zip(["heightFt", "heightIn", "massLb"], shown).map { ($0, $1) }
            let saved = try await client.page(.post, "/clients/\(id)", cookie: session.cookie, form: fields)
            #expect(saved.status == .seeOther, "\(saved.text)")
            let clientId = try #require(UUID(uuidString: id))
            let stored = try #require(try await fixture.store.clients.find(clientId, in: admin.trainer.companyId)?.client)
            #expect(stored.height == 1.7512 && stored.mass == 70.123 && stored.notes == "now with notes")
            fields[fields.count - 1] = ("massLb", "160")
            let resaved = try await client.page(.post, "/clients/\(id)", cookie: session.cookie, form: fields)
            #expect(resaved.status == .seeOther, "\(resaved.text)")
            let changed = try #require(try await fixture.store.clients.find(clientId, in: admin.trainer.companyId)?.client)
            #expect(changed.mass == 72.5748 && changed.height == 1.7512, "160 lb, stored to four decimals as every SI value")
        }
    }

    @Test func aRefusedFormShowsEachErrorBesideItsFieldAndKeepsWhatWasTyped() async throws {
        try await withAPI { fixture, client in
            let company = try await fixture.company()
            let admin = try await fixture.trainer(in: company, role: .admin)
            let session = try #require(try await client.signIn(admin.email, admin.password).session)
            let refused = try await client.page(
                .post,
                "/clients",
                cookie: session.cookie,
                form: [("csrf", session.csrf), ("givenName", "Kept <b>as text</b>"), ("email", "not an email"), ("heightCm", "tall")]
            )
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains("id=\"email-error\"") && refused.text.contains("id=\"height-error\""), "\(refused.text)")
            #expect(refused.text.contains("value=\"Kept &lt;b&gt;as text&lt;/b&gt;\""))
            #expect(try await fixture.store.clients.listVersion(of: company.id) == 0)
        }
    }

    @Test func keptPagesCarryEachSessionsOwnTokenAndShowChangesAtOnce() async throws {
        try await withAPI { fixture, client in
            let admin = try await fixture.trainer(in: try await fixture.company(), role: .admin)
            let token = try await client.token(for: admin)
            let id = try await client.screenedClient(token: token)
            let one = try #require(try await client.signIn(admin.email, admin.password).session)
            let two = try #require(try await client.signIn(admin.email, admin.password).session)
            #expect(one.csrf != two.csrf)
            for path in ["/clients", "/clients/\(id)"] {
                for _ in 0..<2 {
                    let first = try await client.page(.get, path, cookie: one.cookie).text
                    let second = try await client.page(.get, path, cookie: two.cookie).text
                    #expect(first.contains(one.csrf) && !first.contains(two.csrf), "\(path)")
                    #expect(second.contains(two.csrf) && !second.contains(one.csrf), "\(path)")
                }
            }
            // A kept page is never shown after what it shows changed: the client, a result, a photo.
            let renamed = try await client.send(.patch, "/v1/clients/\(id)", token: token, json: #"{"givenName": "Renamed"}"#)
            #expect(renamed.status == .ok)
            #expect(try await client.page(.get, "/clients", cookie: one.cookie).text.contains("Renamed"))
            #expect(try await client.page(.get, "/clients/\(id)", cookie: one.cookie).text.contains("Renamed"))
            let result = try await client.send(
                .post,
                "/v1/clients/\(id)/results",
                token: token,
                json: #"{"exerciseId": "push-ups", "values": {"count": 21}}"#
            )
            #expect(result.status == .created)
            let withResult = try await client.page(.get, "/clients/\(id)", cookie: one.cookie).text
            #expect(withResult.contains("Push-ups") && withResult.contains("21"))
            let resultId = try #require(result.object["id"] as? String)
            let photo = try await client.sendBytes(
                .post,
                "/v1/results/\(resultId)/media",
                token: token,
                contentType: "image/jpeg",
                bytes: try Data(contentsOf: RepositoryRoot.url.appendingPathComponent("Tests/Fixtures/photo-32x24.jpg")).map { $0 }
            )
            #expect(photo.status == .created, "\(photo.text)")
            let withPhoto = try await client.page(.get, "/clients/\(id)", cookie: one.cookie).text
            #expect(withPhoto.contains("/media/") && withPhoto.contains("/thumbnail"))
        }
    }

    @Test func theEnglishAndSpanishWordsHaveTheSameKeys() throws {
        let folder = RepositoryRoot.url.appendingPathComponent("Sources/Console/Resources/strings")
        let english = try ConsoleStrings(language: "en", folder: folder)
        let spanish = try ConsoleStrings(language: "es", folder: folder)
        #expect(english.paths.symmetricDifference(spanish.paths).isEmpty, "\(english.paths.symmetricDifference(spanish.paths).sorted())")
        #expect(english.paths.count > 200)
    }
}

extension ConsoleForms {
    /// The value of the input with `name`.
    static func value(_ name: String, in html: String) -> String? {
        guard let start = html.range(of: "name=\"\(name)\"") else { return nil }
        guard let value = html[start.upperBound...].range(of: "value=\"") else { return nil }
        return String(html[value.upperBound...].prefix { $0 != "\"" })
    }
}
