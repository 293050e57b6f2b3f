import Foundation
import HealthwheelCore
import Store
import Synchronization

/// The latest version of every exercise pack, in memory: read on every result and wheel, changed only by an
/// import. Packs owned by `everyCompany` are seen by every company; a company's own packs only by it.
public final class ExerciseCatalog: Sendable {
    public static let everyCompany = "*"

    /// One exercise as a company sees it, with the pack it belongs to.
    public struct Entry: Sendable {
        public let owner: String
        public let pack: ExercisePack
        public let exercise: Exercise
    }

    private let packs = Mutex<[StoredExercisePack]>([])
    /// The folder of the shipped packs, whose step images are served.
    public let folder: URL?

    public init(folder: URL?) {
        self.folder = folder
    }

    public static func owner(of company: UUID) -> String { company.uuidString.lowercased() }

    public func reload(from repository: any ExercisePackRepository) async throws {
        let latest = try await repository.latestVersions()
        packs.withLock { $0 = latest }
    }

    /// The company's categories in wheel order: `order`, then name.
    public func categories(for company: UUID) -> [StoredExercisePack] {
        let owner = Self.owner(of: company)
        return packs.withLock { $0 }.filter { $0.owner == Self.everyCompany || $0.owner == owner }
            .sorted { ($0.pack.order ?? .max, $0.pack.name, $0.owner) < ($1.pack.order ?? .max, $1.pack.name, $1.owner) }
    }

    public func category(_ id: String, for company: UUID) -> StoredExercisePack? {
        categories(for: company).first { $0.pack.id == id }
    }

    public func exercise(_ id: String, for company: UUID) -> Entry? {
        for stored in categories(for: company) {
            if let exercise = stored.pack.exercises.first(where: { $0.id == id }) {
                return Entry(owner: stored.owner, pack: stored.pack, exercise: exercise)
            }
        }
        return nil
    }

    /// Ids of `pack` that another pack seen alongside it already uses: categories and exercises must be
    /// unambiguous for every company that sees them.
    func clashes(of pack: ExercisePack, owner: String) -> [FieldError] {
        let others = packs.withLock { $0 }.filter { other in
            !(other.owner == owner && other.pack.id == pack.id)
                && (owner == Self.everyCompany || other.owner == Self.everyCompany || other.owner == owner)
        }
        var errors: [FieldError] = []
        if others.contains(where: { $0.pack.id == pack.id }) {
            errors.append(FieldError("id", "'\(pack.id)' is already the id of another category"))
        }
        let taken = Set(others.flatMap { $0.pack.exercises.map(\.id) })
        for (index, exercise) in pack.exercises.enumerated() where taken.contains(exercise.id) {
            errors.append(FieldError("exercises[\(index)].id", "'\(exercise.id)' is already the id of an exercise in another category"))
        }
        return errors
    }
}
