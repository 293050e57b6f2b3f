import Foundation
import HealthwheelCore

/// Everything a client's report is made from, gathered by the use case that asks for it: the company's branding,
/// the client, the wheel, and each exercise with its results in the period.
public struct ReportInput: Sendable {
    public var companyName: String
    public var theme: Theme
    /// The company's logo, normalised and decoded once (not per report).
    public var logo: ReportLogo?
    public var client: Client
    public var trainerName: String?
    /// The results shown were recorded in `from...to`.
    public var from: Date
    public var to: Date
    public var generatedAt: Date
    /// The client's wheel, in wheel order.
    public var slices: [HealthWheel.Slice]
    /// The exercises of the wheel's categories, in wheel order, each with its results of the period.
    public var exercises: [ExerciseResults]

    public struct ExerciseResults: Sendable {
        public var exercise: Exercise
        public var categoryId: String
        /// Oldest first.
        public var results: [ResultSummary]

        public init(exercise: Exercise, categoryId: String, results: [ResultSummary]) {
            self.exercise = exercise
            self.categoryId = categoryId
            self.results = results.sorted { $0.recordedAt < $1.recordedAt }
        }
    }

    public init(
        companyName: String,
        theme: Theme,
        logo: ReportLogo?,
        client: Client,
        trainerName: String?,
        from: Date,
        to: Date,
        generatedAt: Date,
        slices: [HealthWheel.Slice],
        exercises: [ExerciseResults]
    ) {
        self.companyName = companyName
        self.theme = theme
        self.logo = logo
        self.client = client
        self.trainerName = trainerName
        self.from = from
        self.to = to
        self.generatedAt = generatedAt
        self.slices = slices
        self.exercises = exercises
    }
}
