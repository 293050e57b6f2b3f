import Foundation
import HealthwheelCore
import Hummingbird
import Reports
import Services

/// `/admin/packs`: the exercise packs the company sees, with their versions, and a pack imported from a JSON file:
/// every exercise's examples are scored by its script first, and the page says which gave their expected score
/// and which did not (then nothing is imported).
struct PackPages: Sendable {
    let useCases: UseCases
    let frames: Frames

    /// A pack file at most: scripts and texts, no pictures.
    static let maximumPackBytes = 1 << 20

    func addRoutes(to group: RouterGroup<SignedInContext>) {
        group.get("admin/packs", use: page)
        group.post("admin/packs", use: importPack)
    }

    struct PacksPage {
        var packs: [PackLine]
        var outcome: Outcome?
    }

    struct PackLine {
        var name: String
        var id: String
        var version: Int
        var exercises: Int
        var shipped: Bool
        var imported: String
        var categoryClass: String
    }

    /// What an import came to: the pack's examples, each passed or failed, and the problems found.
    struct Outcome {
        var imported: Bool
        var heading: String
        var exercises: [ExerciseOutcome]
        var problems: [String]
    }

    struct ExerciseOutcome {
        var name: String
        var examples: [ExampleOutcome]
    }

    struct ExampleOutcome {
        var label: String
        var passed: Bool
        var message: String
    }

    @Sendable func page(request: Request, context: SignedInContext) async throws -> Response {
        try await render(request, context, outcome: nil, status: .ok)
    }

    private func render(_ request: Request, _ context: SignedInContext, outcome: Outcome?, status: HTTPResponse.Status) async throws -> Response {
        try context.trainer.requireAdmin(to: "import exercise packs")
        let framed = try await frames.frame(request, context, title: "admin.packs.title", section: "admin")
        let format = framed.format
        let packs = useCases.exercises.catalog.categories(for: context.company, language: framed.frame.language).map { stored in
            PackLine(
                name: stored.pack.name,
                id: stored.pack.id,
                version: stored.pack.version,
                exercises: stored.pack.exercises.count,
                shipped: stored.owner == ExerciseCatalog.everyCompany,
                imported: format.date(stored.importedAt),
                categoryClass: ThemeStylesheet.categoryClass(stored.pack.id)
            )
        }
        return try frames.page("admin-packs", PacksPage(packs: packs, outcome: outcome), framed, status: status)
    }

    @Sendable func importPack(request: Request, context: SignedInContext) async throws -> Response {
        try context.trainer.requireAdmin(to: "import exercise packs")
        let file = try await UploadedFile.read(request, limit: Self.maximumPackBytes)
        let framed = try await frames.frame(request, context, title: "admin.packs.title", section: "admin")
        let (strings, format) = (framed.strings, framed.format)
        // The file as far as it reads, to name exercises and examples; the import checks it in full.
        let pack = try? JSONDecoder().decode(ExercisePack.self, from: Data(file.bytes))
        do {
            let (stored, imported) = try await useCases.exercises.packImport.importUpload(file.bytes, by: context.trainer, at: useCases.clock.now)
            let outcome = Outcome(
                imported: true,
                heading: strings.text(
                    imported ? "admin.packs.imported" : "admin.packs.unchanged",
                    ["name": stored.name, "version": String(stored.version)]
                ),
                exercises: Self.exercises(stored, failures: [:], strings: strings, format: format),
                problems: []
            )
            return try await render(request, context, outcome: outcome, status: imported ? .created : .ok)
        } catch  where !error.formErrors.isEmpty {
            var failures: [String: String] = [:]
            var problems: [String] = []
            for problem in strings.refusals(error.formErrors) {
                if problem.field.contains(".examples[") {
                    failures[String(problem.field.prefix { $0 != "." }) + "." + Self.examplePart(problem.field)] = problem.message
                } else {
                    problems.append("\(problem.field): \(problem.message)")
                }
            }
            // The examples are scored only once the pack's form is sound: with other problems, none was run.
            let outcome = Outcome(
                imported: false,
                heading: strings.text(problems.isEmpty ? "admin.packs.refused" : "admin.packs.refusedUnchecked"),
                exercises: problems.isEmpty ? pack.map { Self.exercises($0, failures: failures, strings: strings, format: format) } ?? [] : [],
                problems: problems
            )
            return try await render(request, context, outcome: outcome, status: .unprocessableContent)
        }
    }

    /// `examples[2]` from `exercises[1].examples[2].score`.
    static func examplePart(_ field: String) -> String {
        guard let start = field.range(of: "examples[") else { return field }
        return String(field[start.lowerBound...].prefix { $0 != "." })
    }

    static func exercises(_ pack: ExercisePack, failures: [String: String], strings: ConsoleStrings, format: ReportFormat) -> [ExerciseOutcome] {
        pack.exercises.enumerated().map { index, exercise in
            ExerciseOutcome(
                name: exercise.name,
                examples: exercise.examples.enumerated().map { exampleIndex, example in
                    let failure = failures["exercises[\(index)].examples[\(exampleIndex)]"]
                    return ExampleOutcome(
                        label: strings.text("admin.packs.example", ["number": String(exampleIndex + 1), "score": format.score(example.score)]),
                        passed: failure == nil,
                        message: failure ?? strings.text("admin.packs.passed")
                    )
                }
            )
        }
    }
}
