import Foundation
import HealthwheelCore

/// Everything a client's report is made from, gathered by the use case that asks for it: the company's branding,
/// the client, the wheel, and each exercise with its results in the period.
public struct ReportInput: Sendable {
    /// Shown in the report's header and as the email's sender name.
    public var companyName: String
    /// The company's theme in force: colours, font, footer, default language and units.
    public var theme: Theme
    /// The company's logo, normalised and decoded once (not per report).
    public var logo: ReportLogo?
    /// The client as recorded now: name, age (at `generatedAt`), goal.
    public var client: Client
    /// The client's assigned trainer's name; nil when none is assigned (the line is left out).
    public var trainerName: String?
    /// The results shown were recorded in `from...to`.
    public var from: Date
    /// The period's end (inclusive); the wheel is read as of this date when it is in the past.
    public var to: Date
    /// When the report was made: printed on it, and the date ages are counted at.
    public var generatedAt: Date
    /// The client's wheel, in wheel order.
    public var slices: [HealthWheel.Slice]
    /// The wheel as it stood at `startDate`: the summary's changes and the wheel's outline.
    public var startSlices: [HealthWheel.Slice]
    /// When progress is counted from: the period's start, or the client's first assessment day in the period when
    /// nothing was scored before it.
    public var startDate: Date
    /// The company's threshold: a category scoring below it is flagged, and "what to work on next" names it.
    public var flagBelow: Double
    /// The exercises of the wheel's categories, in wheel order, each with its results of the period.
    public var exercises: [ExerciseResults]

    /// One exercise with its results in the period, sorted oldest first here whatever order they came in.
    public struct ExerciseResults: Sendable {
        /// The exercise's current definition: name, fields (for formatting values), source.
        public var exercise: Exercise
        /// The pack id it belongs to, so the report files it under its category.
        public var categoryId: String
        /// Oldest first.
        public var results: [ResultSummary]
        /// The photos and videos of the newest result, in upload order (photos beyond `ReportMedia.photosShown`
        /// are counted in `morePhotos`, not here).
        public var media: [ReportMedia]
        /// Photos of the newest result not shown.
        public var morePhotos: Int

        /// Sorts `results` oldest first.
        public init(exercise: Exercise, categoryId: String, results: [ResultSummary], media: [ReportMedia] = [], morePhotos: Int = 0) {
            self.exercise = exercise
            self.categoryId = categoryId
            self.results = results.sorted { $0.recordedAt < $1.recordedAt }
            self.media = media
            self.morePhotos = morePhotos
        }
    }

    /// Gathers a report's input; nothing is checked (the use case has).
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
        startSlices: [HealthWheel.Slice] = [],
        startDate: Date? = nil,
        flagBelow: Double = HealthWheel.defaultFlagBelow,
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
        self.startSlices = startSlices
        self.startDate = startDate ?? from
        self.flagBelow = flagBelow
        self.exercises = exercises
    }
}
