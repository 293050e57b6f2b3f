import Foundation
import HealthwheelCore
import Store
import StoreContract
import TestSupport
import Testing

@testable import Services

@Suite struct QuestionnaireCatalogTests {
    func folder(with files: [String: String]) throws -> TemporaryDirectory {
        let folder = TemporaryDirectory()
        for (name, text) in files {
            try Data(text.utf8).write(to: folder.url.appendingPathComponent(name))
        }
        return folder
    }

    @Test func theShippedQuestionnairesLoad() throws {
        let catalog = try QuestionnaireCatalog.load(from: RepositoryRoot.url.appendingPathComponent("Questionnaires"))
        let screening = try #require(catalog["screening"])
        #expect(screening.sections.map(\.key) == ["personal", "readiness", "lifestyle", "health"])
        #expect(screening.flags.map(\.flag).contains("medical-clearance"))
    }

    @Test func aFileThatIsNotAQuestionnaireIsNamedWithThePlaceInside() throws {
        let broken =
            #"{"id":"x","version":1,"title":"X","sections":[{"key":"a","title":"A","fields":[{"key":"q","title":"Q","type":"slider"}]}],"flags":[]}"#
        let folder = try folder(with: ["good.json": "{}", "broken.json": broken])
        let error = #expect(throws: QuestionnaireCatalog.LoadError.self) {
            try QuestionnaireCatalog.load(from: folder.url)
        }
        // Files load in name order, so broken.json is reported before good.json is read.
        #expect(error?.file == "broken.json")
        #expect(error?.description.contains("sections[0].fields[0].type") == true)
    }

    @Test func aDefinitionThatBreaksTheFormRulesIsNamedWithEveryProblem() throws {
        let text = """
            {"id":"x","version":1,"title":"X","flags":[{"flag":"f","title":"F","when":[{"key":"missing","equals":true}]}],
             "sections":[{"key":"a","title":"A","fields":[
               {"key":"q","title":"Q","type":"choice"},
               {"key":"q","title":"Q again","type":"text","enableWhen":{"key":"nowhere","equals":1}}]}]}
            """
        let folder = try folder(with: ["form.json": text])
        let error = #expect(throws: QuestionnaireCatalog.LoadError.self) { try QuestionnaireCatalog.load(from: folder.url) }
        let problems = error?.problems.joined(separator: "\n") ?? ""
        #expect(error?.file == "form.json")
        #expect(problems.contains("sections[0].fields[0].options"))
        #expect(problems.contains("sections[0].fields[1].key"))
        #expect(problems.contains("sections[0].fields[1].enableWhen.key"))
        #expect(problems.contains("flags[0].when[0].key"))
    }

    @Test func twoFilesWithTheSameIdAreRefused() throws {
        let form =
            #"{"id":"same","version":1,"title":"X","sections":[{"key":"a","title":"A","fields":[{"key":"q","title":"Q","type":"text"}]}],"flags":[]}"#
        let folder = try folder(with: ["a.json": form, "b.json": form])
        let error = #expect(throws: QuestionnaireCatalog.LoadError.self) { try QuestionnaireCatalog.load(from: folder.url) }
        #expect(error?.file == "b.json" && error?.description.contains("a.json") == true)
    }
}

@Suite struct ScreeningGateTests {
    func record(completedAt: Date?, hasDraft: Bool) -> ClientRecord {
        ClientRecord(
            client: Client(companyId: UUID(), createdAt: Date()),
            hasPhoto: false,
            screening: .init(latestCompletedAt: completedAt, latestCompletedFlags: [], hasDraft: hasDraft)
        )
    }

    @Test func assessmentsNeedACompletedScreening() throws {
        for record in [record(completedAt: nil, hasDraft: false), record(completedAt: nil, hasDraft: true)] {
            let refusal = #expect(throws: ServiceError.self) { try ScreeningGate.requireCompletedScreening(record) }
            guard case .conflict(let slug, _, _) = refusal else {
                Issue.record("expected a conflict, got \(String(describing: refusal))")
                continue
            }
            #expect(slug == "screening-required")
        }
        try ScreeningGate.requireCompletedScreening(record(completedAt: Date(), hasDraft: false))
    }
}
