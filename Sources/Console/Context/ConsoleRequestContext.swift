import API
import Foundation
import HealthwheelCore
import Hummingbird
import Services
import StoreContract

/// The context of every console page: the reader's language and, once `ConsoleSessionMiddleware` has run, who is
/// signed in and the form the request posted (already checked against its CSRF token).
struct ConsoleRequestContext: ChildRequestContext {
    var coreContext: CoreRequestContextStorage
    /// The client's IP address: the login limit counts failures per address too.
    let clientAddress: String
    /// The signed-in trainer, when the session cookie names a live session.
    var principal: Principal?
    /// The session's token digest (what signing out ends) and its CSRF token.
    var session: ConsoleSession?
    /// A posted `application/x-www-form-urlencoded` body, read and checked by the CSRF check.
    var form: FormFields?

    init(context: AppRequestContext) {
        coreContext = context.coreContext
        clientAddress = context.clientAddress
    }

    /// Pages post forms and small uploads; photo and video uploads stream on their own routes.
    var maxUploadSize: Int { 1 << 20 }
}

/// The context of pages behind sign-in: a trainer is always present.
struct SignedInContext: ChildRequestContext {
    var coreContext: CoreRequestContextStorage
    let principal: Principal
    let session: ConsoleSession
    let form: FormFields

    /// Throws `ConsoleRedirect.signIn` when no one is signed in (the session middleware has already redirected
    /// page views; this holds for the rest).
    init(context: ConsoleRequestContext) throws {
        guard let principal = context.principal, let session = context.session else { throw ConsoleRedirect.toSignIn(next: nil) }
        coreContext = context.coreContext
        self.principal = principal
        self.session = session
        form = context.form ?? FormFields()
    }

    var maxUploadSize: Int { 1 << 20 }

    var trainer: Trainer { principal.trainer }
    var company: UUID { principal.trainer.companyId }

    /// The path parameter `name` as an id; one that is not a UUID names nothing: 404, as an unknown id.
    func id(_ name: String = "id", of what: String) throws -> UUID {
        guard let id = parameters.get(name).flatMap(UUID.init(hyphenatedHex:)) else { throw ServiceError.notFound(what) }
        return id
    }
}
