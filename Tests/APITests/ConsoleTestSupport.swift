import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// A browser's side of the console, over real HTTP: its session cookie and the CSRF token its pages carry.
struct ConsoleSession {
    var cookie: String
    var csrf: String
}

extension TestClientProtocol {
    /// A console request; `form` is sent urlencoded, `cookie` as the Cookie header.
    func page(
        _ method: HTTPRequest.Method,
        _ uri: String,
        cookie: String? = nil,
        form: [(String, String)]? = nil,
        headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        var fields = headers
        if let cookie { fields[.cookie] = cookie }
        var body: ByteBuffer?
        if let form {
            fields[.contentType] = "application/x-www-form-urlencoded"
            body = ByteBuffer(string: ConsoleForms.encode(form))
        }
        return try await execute(uri: uri, method: method, headers: fields, body: body) { $0 }
    }

    /// Signs in through the sign-in form as a browser does (its form token, sent in the form and its cookie).
    func signIn(_ email: String, _ password: String, headers: HTTPFields = [:]) async throws -> (response: TestResponse, session: ConsoleSession?) {
        let form = try await page(.get, "/sign-in")
        let formCookie = try #require(ConsoleForms.setCookie(form, "hw_signin"))
        let token = try #require(ConsoleForms.hidden("csrf", in: form.text))
        let response = try await page(
            .post,
            "/sign-in",
            cookie: "hw_signin=\(formCookie)",
            form: [("csrf", token), ("email", email), ("password", password), ("next", "/clients")],
            headers: headers
        )
        guard let session = ConsoleForms.setCookie(response, "hw_session") else { return (response, nil) }
        let cookie = "hw_session=\(session)"
        let roster = try await page(.get, "/clients", cookie: cookie)
        return (response, ConsoleSession(cookie: cookie, csrf: try #require(ConsoleForms.hidden("csrf", in: roster.text))))
    }
}

enum ConsoleForms {
    static func encode(_ form: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return form.map {
            "\($0.0.addingPercentEncoding(withAllowedCharacters: allowed)!)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed)!)"
        }
        .joined(separator: "&")
    }

    /// The value of a `Set-Cookie` for `name`, when the response sets one (not a clearing one).
    static func setCookie(_ response: TestResponse, _ name: String) -> String? {
        setCookieLine(response, name).flatMap { line in
            let value = line.dropFirst(name.count + 1).prefix { $0 != ";" }
            return value.isEmpty ? nil : String(value)
        }
    }

    /// The whole `Set-Cookie` line for `name`.
    static func setCookieLine(_ response: TestResponse, _ name: String) -> String? {
        response.headers[values: .setCookie].first { $0.hasPrefix("\(name)=") }
    }

    /// The value of the first hidden input named `name` in a page.
    static func hidden(_ name: String, in html: String) -> String? {
        guard let range = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "\"" })
    }
}
