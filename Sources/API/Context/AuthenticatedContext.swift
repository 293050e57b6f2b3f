import Foundation
import HealthwheelCore
import Hummingbird
import Services
import StoreContract

/// The context of routes behind authentication: a trainer is always present, so handlers need no checks.
struct AuthenticatedContext: ChildRequestContext {
    var coreContext: CoreRequestContextStorage
    let principal: Principal
    let tokenDigest: [UInt8]

    /// The caller.
    var trainer: Trainer { principal.trainer }

    init(context: AppRequestContext) throws {
        guard let principal = context.principal, let digest = context.tokenDigest else { throw Problem.unauthenticated }
        self.coreContext = context.coreContext
        self.principal = principal
        self.tokenDigest = digest
    }

    var maxUploadSize: Int { 1 << 20 }

    /// Throws 403 unless the caller is an admin of their company (`Trainer.requireAdmin`, the one rule), before
    /// the body of a request only an admin may make is read.
    func requireAdmin(to action: String) throws {
        try trainer.requireAdmin(to: action)
    }
}

extension AuthenticatedContext {
    /// The path parameter `name` as an id. One that is not a UUID cannot name anything: 404 naming `what`, as an
    /// unknown id gets.
    func id(_ name: String = "id", of what: String) throws -> UUID {
        guard let id = parameters.get(name).flatMap(UUID.init(hyphenatedHex:)) else { throw Problem.notFound(what) }
        return id
    }
}
