import Credentials
import Foundation
import HealthwheelCore
import Hummingbird
import Services

/// `/sign-in` and `/sign-out`: the API's login (the same password check and the same shared limit on failures)
/// opening a sliding session whose token lives in an HttpOnly cookie.
struct SignInPages: Sendable {
    let sessions: Sessions
    let pages: PageRenderer
    let cookies: SessionCookies

    struct Form {
        var email: String
        var next: String
        /// The sign-in form's CSRF token: also in its cookie (`hw_signin`), since no session exists yet.
        var csrf: String
        var error: String?
        /// Companies to choose from when the email and password open an account in several.
        var companies: [CompanyChoice]
    }

    struct CompanyChoice {
        var id: String
        var name: String
    }

    func addRoutes(public group: RouterGroup<ConsoleRequestContext>, signedIn: RouterGroup<SignedInContext>) {
        group.get("", use: home)
        group.get("sign-in", use: show)
        group.post("sign-in", use: signIn)
        signedIn.post("sign-out", use: signOut)
    }

    /// `/`: the roster for a signed-in trainer, else the sign-in page.
    @Sendable func home(request: Request, context: ConsoleRequestContext) async throws -> Response {
        ConsoleRedirect(location: context.principal == nil ? "/sign-in" : "/clients").response
    }

    @Sendable func show(request: Request, context: ConsoleRequestContext) async throws -> Response {
        if context.principal != nil { return ConsoleRedirect(location: next(request.uri.queryParameters["next"].map(String.init))).response }
        let form = Form(email: "", next: next(request.uri.queryParameters["next"].map(String.init)), csrf: "", error: nil, companies: [])
        // Signed out, or a new password that ended the session.
        let notice = request.uri.queryParameters["notice"].map(String.init).flatMap { Notice.keys.contains($0) ? $0 : nil }
            .map { pages.strings(context.language(request)).text("notices.\($0)") }
        return try render(form, request: request, context: context, status: .ok, notice: notice)
    }

    @Sendable func signIn(request: Request, context: ConsoleRequestContext) async throws -> Response {
        var request = request
        let body = try await request.collectBody(upTo: CSRFMiddleware.maximumFormBytes)
        let fields = FormFields(urlEncoded: body.readableBytesView)
        // The form's token must match its cookie: a page elsewhere can post the form but cannot read or set the cookie.
        guard let cookie = request.cookies[SessionCookies.signInName]?.value, !cookie.isEmpty,
            ConstantTime.equal(Array(cookie.utf8), Array((fields["csrf"] ?? "").utf8))
        else { throw ConsoleRefusal.csrf }
        try SameOrigin.check(request)
        let strings = pages.strings(context.language(request))
        let email = fields["email"] ?? ""
        var form = Form(email: email, next: next(fields["next"]), csrf: "", error: nil, companies: [])
        let company = fields.text("company").flatMap(UUID.init(hyphenatedHex:))
        do {
            let login = try await sessions.login(
                email: email,
                password: fields["password"] ?? "",
                company: company,
                from: context.clientAddress,
                sliding: true
            )
            var redirect = ConsoleRedirect(location: form.next)
            redirect.cookies = [
                cookies.session(login.token, request), Cookie(name: SessionCookies.signInName, value: "", maxAge: 0, path: "/sign-in"),
            ]
            return redirect.response
        } catch Sessions.Refusal.wrongCredentials {
            form.error = strings.text("signIn.wrong")
            return try render(form, request: request, context: context, status: .unauthorized)
        } catch Sessions.Refusal.rateLimited(let seconds) {
            form.error = strings.text("signIn.limited", ["minutes": String(max(1, (seconds + 59) / 60))])
            var response = try render(form, request: request, context: context, status: .tooManyRequests)
            response.headers[.retryAfter] = String(seconds)
            return response
        } catch Sessions.Refusal.companyRequired(let companies) {
            form.error = strings.text("signIn.chooseCompany")
            form.companies = companies.map { CompanyChoice(id: $0.id.uuidString.lowercased(), name: $0.name) }
            return try render(form, request: request, context: context, status: .ok)
        }
    }

    @Sendable func signOut(request: Request, context: SignedInContext) async throws -> Response {
        try await sessions.logout(tokenDigest: context.session.tokenDigest)
        var redirect = ConsoleRedirect(location: "/sign-in?notice=signedOut")
        redirect.cookies = [cookies.cleared(request)]
        return redirect.response
    }

    /// The sign-in page with a fresh form token, set in its cookie too.
    private func render(
        _ form: Form,
        request: Request,
        context: ConsoleRequestContext,
        status: HTTPResponse.Status,
        notice: String? = nil
    ) throws -> Response {
        var form = form
        form.csrf = Base64URL.encode(SecureRandom.bytes(24))
        let language = context.language(request)
        var frame = context.frame(title: pages.strings(language).text("signIn.title"), language: language)
        frame.notice = notice
        var response = try pages.page("sign-in", form, frame: frame, status: status, cacheable: false)
        response.setCookie(cookies.signIn(form.csrf, request))
        return response
    }

    /// Where to go after signing in: `next` when it is a path on this server, else the roster.
    private func next(_ value: String?) -> String {
        value.flatMap(SafePath.init)?.path ?? "/clients"
    }
}
