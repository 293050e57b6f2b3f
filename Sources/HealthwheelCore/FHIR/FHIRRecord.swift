import Foundation

/// Everything a client's FHIR export is made from, gathered by Services; `FHIR.bundle` maps it without I/O.
public struct FHIRRecord: Sendable {
    /// One result with the exercise that describes it (the company's current version; nil when its pack is gone)
    /// and its photos and videos.
    public struct Result: Sendable {
        public var result: AssessmentResult
        public var exercise: Exercise?
        public var media: [MediaFile]

        public init(result: AssessmentResult, exercise: Exercise?, media: [MediaFile]) {
            self.result = result
            self.exercise = exercise
            self.media = media
        }
    }

    public var client: Client
    public var screenings: [Screening]
    /// The questionnaires the screenings answer (each version once).
    public var questionnaires: [Questionnaire]
    public var results: [Result]
    /// Trainers named as performers and authors (those still on the company's books).
    public var trainers: [Trainer]
    /// The company's target score: below it a category or exercise needs attention.
    public var flagBelow: Double

    public init(
        client: Client,
        screenings: [Screening],
        questionnaires: [Questionnaire],
        results: [Result],
        trainers: [Trainer],
        flagBelow: Double
    ) {
        self.client = client
        self.screenings = screenings
        self.questionnaires = questionnaires
        self.results = results
        self.trainers = trainers
        self.flagBelow = flagBelow
    }
}
