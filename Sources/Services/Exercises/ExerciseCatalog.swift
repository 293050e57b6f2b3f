import Foundation
import HealthwheelCore
import Scoring
import StoreContract
import Synchronization

/// The latest version of every exercise pack, in memory: read on every result and wheel, changed only by an
/// import. Packs owned by `everyCompany` are seen by every company; a company's own packs only by it.
public final class ExerciseCatalog: Sendable {
    /// The owner of shipped packs, seen by every company; any other owner is one company's id in lower case.
    public static let everyCompany = "*"

    /// One exercise as a company sees it, with the pack it belongs to.
    public struct Entry: Sendable {
        /// `everyCompany` or the owning company's id: with the exercise id, the exercise a result names.
        public let owner: String
        /// The pack's latest version: the category the exercise belongs to, and the version a new score records.
        public let pack: ExercisePack
        /// The exercise as that version defines it: its fields, script and examples.
        public let exercise: Exercise
        /// The compiled-chunk cache key of the exercise's script, computed once per import.
        let scriptID: ScriptID
    }

    /// What one owner's companies see: categories in wheel order and every exercise by id.
    struct View: Sendable {
        var categories: [StoredExercisePack] = []
        var exercises: [String: Entry] = [:]
        /// The wheel's categories, in the same order.
        var wheel: [HealthWheel.Category] = []
    }

    /// Everything the catalog holds, replaced whole by a reload, so readers never see half an import.
    private struct Contents: Sendable {
        var packs: [StoredExercisePack] = []
        /// Keyed by owner, then by language (`en` always, and every language a pack seen there translates to);
        /// companies without their own packs see the `everyCompany` views.
        var views: [String: [String: View]] = [:]
        /// Moves on every reload: anything derived from the catalog (a cached wheel) is stale once it has moved.
        var generation = 0
        /// The stored packs' version this was loaded at (or later: it is read before the packs).
        var version: Int64 = -1
    }

    private let contents = Mutex(Contents())
    /// The reload `reloadIfBehind` started and has not finished: requests arriving together after another node
    /// stored a pack wait for it instead of each reading every pack.
    private let reloading = Mutex<Task<Void, any Error>?>(nil)
    /// The folder of the shipped packs, whose step images are served.
    public let folder: URL?

    /// An empty catalog until `reload(from:)`; `folder` is where step images of shipped packs are served from (nil: none).
    public init(folder: URL?) {
        self.folder = folder
    }

    /// The owner string a company's own packs are stored under: its id in lower case.
    public static func owner(of company: UUID) -> String { company.lowercaseHyphenated }

    /// Replaces everything with the latest stored version of every pack, at once; readers never see half an import.
    /// Called at start-up and after each import. Cached wheels go stale, as the catalog's generation moves.
    public func reload(from repository: any ExercisePackRepository) async throws {
        // First: packs read after it can only be newer, so the catalog is never labelled newer than it is.
        let version = try await repository.catalogVersion()
        let latest = try await repository.latestVersions()
        var views: [String: [String: View]] = [:]
        for owner in Set(latest.map(\.owner)).union([Self.everyCompany]) {
            let seen = latest.filter { $0.owner == Self.everyCompany || $0.owner == owner }
                .sorted { ($0.pack.order ?? .max, $0.pack.name, $0.owner) < ($1.pack.order ?? .max, $1.pack.name, $1.owner) }
            let languages = Set(seen.flatMap { ($0.pack.translations ?? [:]).keys }).union(["en"])
            views[owner] = Dictionary(uniqueKeysWithValues: languages.map { ($0, Self.view(of: seen, in: $0)) })
        }
        contents.withLock { contents in
            // A slower reload that read an older version does not replace a newer one.
            guard version >= contents.version else { return }
            contents = Contents(packs: latest, views: views, generation: contents.generation + 1, version: version)
        }
    }

    /// Reloads when the stored packs moved past what this catalog holds (`version`, as read with a session):
    /// another node, or the command line, stored a pack. One comparison when nothing moved.
    public func reloadIfBehind(_ version: Int64, from repository: any ExercisePackRepository) async throws {
        // Again while behind: a reload already running may have read the packs before this version was stored.
        while contents.withLock({ $0.version }) < version {
            let running = reloading.withLock { running -> Task<Void, any Error> in
                if let running { return running }
                let task = Task {
                    defer { self.reloading.withLock { $0 = nil } }
                    try await self.reload(from: repository)
                }
                running = task
                return task
            }
            try await running.value
        }
    }

    /// What one owner's companies see, worded in `language`.
    private static func view(of seen: [StoredExercisePack], in language: String) -> View {
        let localized = seen.map { StoredExercisePack(owner: $0.owner, pack: $0.pack.localized(to: language), importedAt: $0.importedAt) }
        var view = View(categories: localized)
        view.wheel = localized.map { stored in
            HealthWheel.Category(
                id: stored.pack.id,
                name: stored.pack.name,
                colour: stored.pack.colour,
                exercises: stored.pack.exercises.map { ($0.id, $0.name) }
            )
        }
        for stored in localized {
            for exercise in stored.pack.exercises {
                view.exercises[exercise.id] = Entry(
                    owner: stored.owner,
                    pack: stored.pack,
                    exercise: exercise,
                    scriptID: ExerciseScorer.scriptID(exercise)
                )
            }
        }
        return view
    }

    /// Moves with every change of the packs: what was rendered from an older generation may be stale.
    public var generation: Int { contents.withLock { $0.generation } }

    /// The company's wheel categories in `language` and the catalog generation they belong to, read together.
    func wheelCategories(for company: UUID, language: String = "en") -> (categories: [HealthWheel.Category], generation: Int) {
        let owner = Self.owner(of: company)
        return contents.withLock { contents in
            let views = contents.views[owner] ?? contents.views[Self.everyCompany] ?? [:]
            return ((views[language] ?? views["en"])?.wheel ?? [], contents.generation)
        }
    }

    /// The shipped exercises every company sees, in wheel order (what the OpenAPI document describes one by
    /// one), with the catalog generation they belong to, read together.
    public func shippedExercises() -> (exercises: [Exercise], generation: Int) {
        let (view, generation) = contents.withLock { ($0.views[Self.everyCompany]?["en"] ?? View(), $0.generation) }
        return (view.categories.filter { $0.owner == Self.everyCompany }.flatMap(\.pack.exercises), generation)
    }

    private func view(for company: UUID, language: String) -> View {
        let owner = Self.owner(of: company)
        let views = contents.withLock { $0.views[owner] ?? $0.views[Self.everyCompany] } ?? [:]
        return views[language] ?? views["en"] ?? View()
    }

    /// The company's categories in wheel order (`order`, then name), their texts in `language` where the packs
    /// have them and in English elsewhere.
    public func categories(for company: UUID, language: String = "en") -> [StoredExercisePack] {
        view(for: company, language: language).categories
    }

    /// The company's category with pack id `id` (`strength`), or nil when the company sees none by that id.
    public func category(_ id: String, for company: UUID, language: String = "en") -> StoredExercisePack? {
        categories(for: company, language: language).first { $0.pack.id == id }
    }

    /// The exercise with `id` as the company sees it, or nil (another company's own exercise is nil too). Its
    /// texts are in `language` where the pack has them; what scores is the same in every language.
    public func exercise(_ id: String, for company: UUID, language: String = "en") -> Entry? {
        view(for: company, language: language).exercises[id]
    }

    /// Ids of `pack` that another pack seen alongside it already uses: categories and exercises must be
    /// unambiguous for every company that sees them.
    func clashes(of pack: ExercisePack, owner: String) -> [FieldError] {
        let others = contents.withLock { $0.packs }.filter { other in
            !(other.owner == owner && other.pack.id == pack.id)
                && (owner == Self.everyCompany || other.owner == Self.everyCompany || other.owner == owner)
        }
        return Self.clashes(of: pack, among: others)
    }

    static func clashes(of pack: ExercisePack, among others: [StoredExercisePack]) -> [FieldError] {
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
