import Foundation
import HealthwheelCore

/// One client to save in `ClientRepository.saveEach`.
public struct ClientSave: Sendable {
    public var client: Client
    public var isNew: Bool
    /// A new photo, or nil to leave the photo as it is.
    public var photo: ClientPhoto?
    /// Who saves it: the audit trail records the client as created or changed by them.
    public var actor: AuditEvent.Actor

    public init(client: Client, isNew: Bool, photo: ClientPhoto?, by actor: AuditEvent.Actor) {
        self.client = client
        self.isNew = isNew
        self.photo = photo
        self.actor = actor
    }
}
