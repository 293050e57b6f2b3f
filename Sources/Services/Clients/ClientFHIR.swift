import Foundation
import HealthwheelCore
import StoreContract

/// A client's record in HL7 FHIR R4 (`FHIR.bundle`), and the shipped questionnaires as FHIR Questionnaires. Any
/// trainer of the company may read it, as they may read the client; each export is a line in the audit trail.
public struct ClientFHIR: Sendable {
    let audit: any AuditRepository
    let clients: any ClientRepository
    let companies: any CompanyRepository
    let media: any MediaRepository
    let results: any ResultRepository
    let screenings: any ScreeningRepository
    let trainers: any TrainerRepository
    let questionnaires: QuestionnaireCatalog
    let catalog: ExerciseCatalog
    let clock: any WallClock

    /// One per process (`UseCases` builds it).
    init(store: Repositories, questionnaires: QuestionnaireCatalog, catalog: ExerciseCatalog, clock: any WallClock) {
        self.audit = store.audit
        self.clients = store.clients
        self.companies = store.companies
        self.media = store.media
        self.results = store.results
        self.screenings = store.screenings
        self.trainers = store.trainers
        self.questionnaires = questionnaires
        self.catalog = catalog
        self.clock = clock
    }

    /// Everything the record is made from: the client, screenings with their questionnaires, every result with
    /// its exercise and media, the trainers they name, the company's target score. `notFound` for another
    /// company's client.
    public func record(_ id: UUID, in company: UUID) async throws -> FHIRRecord {
        guard let client = try await clients.find(id, in: company)?.client else { throw ServiceError.notFound("client") }
        let screenings = try await self.screenings.list(client: id, in: company)
        let results = try await self.results.all(client: id, in: company)
        let media = try await self.media.list(results: results.map(\.id), in: company)
        var seen: Set<String> = []
        let answered = screenings.compactMap { screening -> Questionnaire? in
            guard seen.insert(screening.questionnaireId).inserted else { return nil }
            return questionnaires.questionnaires[screening.questionnaireId]
        }
        var trainerIds = Set(results.map(\.trainerId)).union(screenings.compactMap(\.completedBy))
        trainerIds.formUnion(media.values.joined().map(\.createdBy))
        var trainers: [Trainer] = []
        for trainerId in trainerIds.sorted(by: { $0.uuidString < $1.uuidString }) {
            if let trainer = try await self.trainers.find(trainerId, in: company) { trainers.append(trainer) }
        }
        return FHIRRecord(
            client: client,
            screenings: screenings,
            questionnaires: answered,
            results: results.map { result in
                FHIRRecord.Result(
                    result: result,
                    exercise: catalog.exercise(result.exerciseId, for: company)?.exercise,
                    media: media[result.id] ?? []
                )
            },
            trainers: trainers,
            flagBelow: try await companies.settings(of: company).wheelFlagBelow
        )
    }

    /// The client's record as a FHIR Bundle, recorded in the audit trail as exported by `trainer`. `mediaURL`
    /// says where each file is found by whoever reads the bundle.
    public func bundle(_ id: UUID, by trainer: Trainer, mediaURL: (MediaFile) -> String) async throws -> JSONValue {
        let record = try await record(id, in: trainer.companyId)
        let now = clock.now
        try await audit.record(.client(.exported, id, by: trainer, at: now))
        return FHIR.bundle(record, mediaURL: mediaURL, now: now)
    }

    /// A shipped questionnaire as a FHIR Questionnaire; `notFound` for an unknown id.
    public func questionnaire(_ id: String) throws -> JSONValue {
        guard let questionnaire = questionnaires.questionnaires[id] else { throw ServiceError.notFound("questionnaire") }
        return FHIR.questionnaire(questionnaire)
    }
}
