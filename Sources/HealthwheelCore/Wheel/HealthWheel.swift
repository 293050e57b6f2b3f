import Foundation

/// The health wheel: one slice per category, scored by the mean of the latest score of each of its exercises,
/// and flagged when that mean is below the company's threshold. Slices keep the categories' order; drawing them
/// (equal angles, radius by score) is the client app's job.
public enum HealthWheel {
    /// The best score a slice can reach: the wheel's rim.
    public static let target = 10.0
    /// A slice scoring below this is flagged, for companies that have not set their own `wheelFlagBelow`.
    public static let defaultFlagBelow = 4.0

    /// One slice to be: an exercise pack as the wheel shows it, built by `ExerciseCatalog.wheelCategories(for:)`.
    public struct Category: Sendable, Equatable {
        /// The pack's id (`cardiovascular`); results name it as their `categoryId`.
        public var id: String
        /// The pack's name, shown on the slice.
        public var name: String
        /// `#rrggbb`: the slice's fill.
        public var colour: String
        /// The pack's exercises in pack order; their scores make the slice's score.
        public var exercises: [(id: String, name: String)]

        /// Builds a category in code; the catalog and tests do.
        public init(id: String, name: String, colour: String, exercises: [(id: String, name: String)]) {
            self.id = id
            self.name = name
            self.colour = colour
            self.exercises = exercises
        }

        /// Compares field by field, since the tuples in `exercises` keep the compiler from synthesising `==`.
        public static func == (lhs: Category, rhs: Category) -> Bool {
            lhs.id == rhs.id && lhs.name == rhs.name && lhs.colour == rhs.colour
                && lhs.exercises.map(\.id) == rhs.exercises.map(\.id) && lhs.exercises.map(\.name) == rhs.exercises.map(\.name)
        }
    }

    /// What is known of one exercise for the client: its newest scored result, and its newest result of all.
    public struct Latest: Sendable, Equatable {
        /// Nil when this result has no score (its script failed or the client lacked sex or birth date).
        public var score: Double?
        /// Every field by key, in stored units (SI): what an imperial reader's display is made from.
        public var values: [String: Double]
        /// When the result was measured, which a wheel `asOf` a date compares against.
        public var recordedAt: Date

        /// Builds a latest result in code; the result repository makes these from its rows.
        public init(score: Double?, values: [String: Double], recordedAt: Date) {
            self.score = score
            self.values = values
            self.recordedAt = recordedAt
        }
    }

    /// One exercise of a slice, as the wheel shows it.
    public struct ExerciseScore: Sendable, Equatable {
        /// Which exercise of the category this is (`push-ups`).
        public var exerciseId: String
        /// The exercise's name, shown next to its score.
        public var name: String
        /// The score of the newest scored result (0–10, one decimal); nil while no result of it has a score.
        public var score: Double?
        /// The newest result, scored or not; nil while none is recorded. Its values are what the client last did.
        public var latest: Latest?

        /// An exercise's score as kept elsewhere (a cached page's wheel, without its latest values).
        public init(exerciseId: String, name: String, score: Double?, latest: Latest?) {
            self.exerciseId = exerciseId
            self.name = name
            self.score = score
            self.latest = latest
        }
    }

    /// One category of the client's wheel: its score and whether it needs attention.
    public struct Slice: Sendable, Equatable {
        /// The pack's id (`cardiovascular`).
        public var categoryId: String
        /// The pack's name, shown on the slice.
        public var name: String
        /// `#rrggbb`: the slice's fill.
        public var colour: String
        /// The mean of the exercises' scores, rounded to one decimal; nil while none is scored (drawn empty).
        public var score: Double?
        /// True when the score is below the company's threshold; never while the slice is unscored.
        public var flagged: Bool
        /// Every exercise of the category in pack order, scored or not.
        public var exercises: [ExerciseScore]

        /// A slice as kept elsewhere (a cached page's wheel); `slices(_:scored:newest:flagBelow:)` makes them.
        public init(categoryId: String, name: String, colour: String, score: Double?, flagged: Bool, exercises: [ExerciseScore] = []) {
            self.categoryId = categoryId
            self.name = name
            self.colour = colour
            self.score = score
            self.flagged = flagged
            self.exercises = exercises
        }

        /// The exercise holding the slice back: its lowest-scored one (the first of equals, in category order);
        /// nil while none is scored. A flagged slice names it, so the trainer sees what to work on.
        public var weakest: ExerciseScore? {
            exercises.filter { $0.score != nil }.min { $0.score! < $1.score! }
        }
    }

    /// `scored[exerciseId]` is the newest result with a score; `newest[exerciseId]` the newest result at all.
    public static func slices(
        _ categories: [Category],
        scored: [String: Latest],
        newest: [String: Latest],
        flagBelow: Double
    ) -> [Slice] {
        categories.map { category in
            let exercises = category.exercises.map { exercise in
                ExerciseScore(exerciseId: exercise.id, name: exercise.name, score: scored[exercise.id]?.score, latest: newest[exercise.id])
            }
            let scores = exercises.compactMap(\.score)
            let score = scores.isEmpty ? nil : Score.rounded(scores.reduce(0, +) / Double(scores.count))
            return Slice(
                categoryId: category.id,
                name: category.name,
                colour: category.colour,
                score: score,
                flagged: score.map { $0 < flagBelow } ?? false,
                exercises: exercises
            )
        }
    }
}
