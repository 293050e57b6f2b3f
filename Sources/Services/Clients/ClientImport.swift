import Foundation
import HealthwheelCore
import Media
import StoreContract

/// Imports vCards into a company's clients: the use case behind `POST /v1/clients/import` and
/// `healthwheel clients import`.
///
/// Each card is matched to a client by UID, then email, then exact full name (as the original app matched
/// Contacts), and creates or updates it with only the details the card has; goal, height and mass are never
/// touched. A card's NOTE becomes a new client's notes; an existing client's notes are the trainer's and stay,
/// and the card's report says so when they differ. Whatever a card held that is not kept is named in its report.
///
/// Cost per card does not grow with the roster: a chunk's cards are matched together (index seeks, a few
/// statements per chunk) and saved together in shared transactions (`ClientRepository.saveEach`), so a bad card
/// still fails alone.
public struct ClientImport: Sendable {
    public let clients: any ClientRepository
    /// Where cards' photos are read: never in the server's process.
    public let mediaWorkers: MediaWorkers
    public let clock: any WallClock

    /// Cards matched and saved together: one transaction (a few fsyncs) per chunk, and a progress report.
    static let chunkSize = 500

    init(clients: any ClientRepository, mediaWorkers: MediaWorkers, clock: any WallClock) {
        self.clients = clients
        self.mediaWorkers = mediaWorkers
        self.clock = clock
    }

    /// The operator's import (`healthwheel clients import`), of any size.
    public init(store: Repositories, mediaWorkers: MediaWorkers, clock: any WallClock) {
        self.init(clients: store.clients, mediaWorkers: mediaWorkers, clock: clock)
    }

    /// What happened to one card.
    public struct Item: Sendable, Equatable {
        public enum Status: String, Sendable {
            case created, updated, skipped
        }

        /// The card's position in the file, from 1.
        public var index: Int
        public var status: Status
        public var clientId: UUID?
        public var name: String?
        /// Why a card was skipped.
        public var reason: String?
        /// What the card held that was not imported, and other remarks.
        public var notes: [String]
    }

    /// The whole import: counts, and one item per card in file order.
    public struct Report: Sendable {
        public var items: [Item]

        public func count(_ status: Item.Status) -> Int { items.lazy.filter { $0.status == status }.count }
    }

    /// Imports `cards` (as `VCardParser.parse` returns them) into `company`. New clients are assigned to
    /// `trainer` when given. `progress` hears (cards done, cards in all) after each chunk.
    public func run(
        _ cards: [Result<VCardContact, VCardParser.Failure>],
        into company: UUID,
        assigningTo trainer: UUID?,
        progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) async throws -> Report {
        var items: [Item] = []
        items.reserveCapacity(cards.count)
        var touched = TouchedClients()
        for start in stride(from: 0, to: cards.count, by: Self.chunkSize) {
            let chunk = cards[start..<min(start + Self.chunkSize, cards.count)]
            var saves: [(item: Int, save: ClientSave)] = []
            let stored = try await clients.matches(Set(chunk.flatMap { (try? $0.get()).map(Self.matchKeys) ?? [] }), in: company)
            for (offset, card) in zip(chunk.indices, chunk) {
                let index = offset + 1
                switch card {
                case .failure(let failure):
                    items.append(Item(index: index, status: .skipped, reason: failure.reason, notes: []))
                case .success(let contact):
                    let decision = try await decide(contact, index: index, company: company, trainer: trainer, stored: stored, touched: &touched)
                    if let save = decision.save { saves.append((items.count, save)) }
                    items.append(decision.item)
                }
            }
            let outcomes = await clients.saveEach(saves.map(\.save), at: clock.now)
            for ((item, save), outcome) in zip(saves, outcomes) {
                guard case .failure(let error) = outcome else { continue }
                touched.forget(save.client)
                items[item].status = .skipped
                items[item].clientId = nil
                items[item].reason = "not saved: \(error)"
            }
            progress(min(start + Self.chunkSize, cards.count), cards.count)
        }
        return Report(items: items)
    }

    /// How one card changes its client, if at all.
    private func decide(
        _ contact: VCardContact,
        index: Int,
        company: UUID,
        trainer: UUID?,
        stored: [ClientMatchKey: Client],
        touched: inout TouchedClients
    ) async throws -> (item: Item, save: ClientSave?) {
        let existing = Self.match(contact, stored: stored, touched: touched)
        let now = clock.now
        var client = existing ?? Client(companyId: company, createdAt: now)
        if existing == nil { client.assignedTrainerId = trainer }
        var notes = contact.notes
        var edit = Self.edit(from: contact)
        if let note = contact.note {
            if note.count > ClientEdit.maxNotesLength {
                notes.append("NOTE not imported: longer than \(ClientEdit.maxNotesLength) characters")
            } else if existing == nil {
                edit.notes = .set(note)
            } else if existing?.notes != note {
                notes.append("NOTE not imported: the client's notes differ from the card's, and the trainer's notes were kept")
            }
        }
        do {
            try edit.apply(to: &client, today: CalendarDate(now))
        } catch {
            let reason = error.errors.map(\.description).joined(separator: "; ")
            return (Item(index: index, status: .skipped, name: contact.fullName, reason: reason, notes: notes), nil)
        }
        if client.vcardUID == nil, let uid = contact.uid, !uid.lowercased().hasPrefix("urn:uuid:\(client.id.lowercaseHyphenated)") {
            client.vcardUID = uid
        }
        var photo = contact.photo.map { ClientPhoto(contentType: $0.contentType, bytes: $0.bytes) }
        if let bytes = photo?.bytes, bytes.count > Client.maxPhotoBytes {
            notes.append("photo not imported: larger than \(Client.maxPhotoBytes) bytes")
            photo = nil
        } else if let bytes = photo?.bytes {
            do {
                _ = try await mediaWorkers.pictureHeader(bytes, limit: .clientPhoto, company: company)
            } catch {
                notes.append("photo not imported: it \(error.reason)")
                photo = nil
            }
        }
        if let existing, let new = photo, !touched.isNew(existing.id), try await clients.photo(of: existing.id, in: company) == new {
            photo = nil  // the same picture again
        }
        if let existing, client == existing, photo == nil {
            let item = Item(index: index, status: .updated, clientId: client.id, name: client.fullName, notes: notes + ["no changes"])
            return (item, nil)
        }
        client.updatedAt = now
        touched.record(client, isNew: existing == nil || touched.isNew(client.id))
        let item = Item(index: index, status: existing == nil ? .created : .updated, clientId: client.id, name: client.fullName, notes: notes)
        // A client this import created earlier is updated by this save: saves run in order, so its insert (in
        // this chunk or an earlier one) comes first.
        return (item, ClientSave(client: client, isNew: existing == nil, photo: photo, by: trainer.map(AuditEvent.Actor.trainer) ?? .operatorCommand))
    }

    /// What a card may match a stored client by, in the order they are tried: UID, email, full name.
    static func matchKeys(_ contact: VCardContact) -> [ClientMatchKey] {
        [contact.uid.map(ClientMatchKey.uid), contact.email.map { .email($0.lowercased()) }, contact.fullName.map(ClientMatchKey.fullName)]
            .compactMap { $0 }
    }

    /// The client a card is about: by UID, then email, then full name; at each step a client this import
    /// already created or changed wins over the stored one (`stored`, read for the card's chunk), since it is
    /// newer.
    private static func match(_ contact: VCardContact, stored: [ClientMatchKey: Client], touched: TouchedClients) -> Client? {
        for key in matchKeys(contact) {
            if let client = touched.client(key) { return client }
            if let client = stored[key] { return touched.newest(client) }
        }
        return nil
    }

    /// The details a card carries, as a client edit that leaves everything the card does not mention.
    public static func edit(from contact: VCardContact) -> ClientEdit {
        var edit = ClientEdit()
        if let value = contact.givenName { edit.givenName = .set(value) }
        if let value = contact.familyName { edit.familyName = .set(value) }
        if let value = contact.email { edit.email = .set(value) }
        if let value = contact.phone { edit.phone = .set(value) }
        if let value = contact.birthDate { edit.birthDate = .set(value.description) }
        if let value = contact.sex { edit.sex = .set(value.rawValue) }
        return edit
    }
}

/// The clients an import created or changed so far, by id and by each key a later card may match them by, so
/// that two cards for one person in one file make one client, even before the first is saved.
struct TouchedClients {
    private var byId: [UUID: Client] = [:]
    private var created: Set<UUID> = []
    private var byKey: [ClientMatchKey: UUID] = [:]

    func client(_ key: ClientMatchKey) -> Client? {
        byKey[key].flatMap { byId[$0] }
    }

    /// `stored`, or this import's newer state of it.
    func newest(_ stored: Client) -> Client { byId[stored.id] ?? stored }

    /// True for a client this import created (its first save inserts it).
    func isNew(_ id: UUID) -> Bool { created.contains(id) }

    mutating func record(_ client: Client, isNew: Bool) {
        byId[client.id] = client
        if isNew { created.insert(client.id) }
        if let uid = client.vcardUID { byKey[.uid(uid)] = client.id }
        if let email = client.email?.lowercased() { byKey[.email(email)] = client.id }
        if !client.fullName.isEmpty { byKey[.fullName(client.fullName)] = client.id }
    }

    mutating func forget(_ client: Client) {
        byId[client.id] = nil
        created.remove(client.id)
    }
}
