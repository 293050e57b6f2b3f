import API
import Foundation
import Hummingbird
import Services

/// The trainers' web console: pages at `/` on the API's router, rendered on the server over the same use cases
/// as the API (docs/ARCHITECTURE.md §7). Signed in with a session cookie; every form carries its CSRF token.
public struct Console: Sendable {
    let useCases: UseCases
    let configuration: ConsoleConfiguration
    let pages: PageRenderer

    /// Loads the templates, words and assets; throws when one is missing or does not parse.
    public init(useCases: UseCases, configuration: ConsoleConfiguration = .init()) throws {
        self.useCases = useCases
        self.configuration = configuration
        pages = try PageRenderer()
    }

    /// Adds the console's routes beside the API's (`buildApplication(alongside:)`).
    public func addRoutes(to router: Router<AppRequestContext>) {
        let cookies = SessionCookies(configuration: configuration)
        let console = router.group()
            .add(middleware: SecurityHeadersMiddleware())
            .group(context: ConsoleRequestContext.self)
            .add(middleware: ConsolePageErrors(pages: pages))
            .add(middleware: ConsoleSessionMiddleware(sessions: useCases.trainers.sessions, cookies: cookies))
            // Again inside the session's: a refusal's page then shows who is signed in, with the navigation. The
            // outer one answers what the session's read itself throws.
            .add(middleware: ConsolePageErrors(pages: pages))
        let signedIn = console.group().add(middleware: CSRFMiddleware()).group(context: SignedInContext.self)
        let frames = Frames(pages: pages, themes: useCases.themes.companies, cookies: cookies)

        AssetRoutes(assets: pages.assets).addRoutes(to: console)
        SignInPages(sessions: useCases.trainers.sessions, pages: pages, cookies: cookies).addRoutes(public: console, signedIn: signedIn)
        ThemeStylesheet(themes: useCases.themes.companies, catalog: useCases.exercises.catalog).addRoutes(to: signedIn)
        RosterPages(
            roster: useCases.clients.roster,
            trainers: useCases.trainers.accounts,
            attention: useCases.clients.attention,
            frames: frames,
            clock: useCases.clock
        )
        .addRoutes(to: signedIn)
        ClientPages(useCases: useCases, frames: frames).addRoutes(to: signedIn)
        ResultPages(useCases: useCases, frames: frames).addRoutes(to: signedIn)
        ReportPages(useCases: useCases, frames: frames).addRoutes(to: signedIn)
        AdminPages(useCases: useCases, frames: frames).addRoutes(to: signedIn)
        WebhookPages(endpoints: useCases.webhooks.endpoints, clock: useCases.clock, frames: frames).addRoutes(to: signedIn)
        ThemePages(useCases: useCases, frames: frames).addRoutes(to: signedIn)
        PackPages(useCases: useCases, frames: frames).addRoutes(to: signedIn)
        ScreeningPages(
            screenings: useCases.screenings.answers,
            questionnaires: useCases.screenings.questionnaires,
            roster: useCases.clients.roster,
            frames: frames
        ).addRoutes(to: signedIn)
    }
}
