import Foundation

/// The health wheel: one slice per category, scored by the mean of the latest score of each of its exercises,
/// and flagged when that mean is below the company's threshold. Slices keep the categories' order; drawing them
/// (equal angles, radius by score) is the client app's job.
public enum HealthWheel {
    /// The best score a slice can reach: the wheel's rim.
    public static let target = 10.0
    public static let defaultFlagBelow = 4.0

    public struct Category: Sendable, Equatable {
        public var id: String
        public var name: String
        public var colour: String
        public var exercises: [(id: String, name: String)]

        public init(id: String, name: String, colour: String, exercises: [(id: String, name: String)]) {
            self.id = id
            self.name = name
            self.colour = colour
            self.exercises = exercises
        }

        public static func == (lhs: Category, rhs: Category) -> Bool {
            lhs.id == rhs.id && lhs.name == rhs.name && lhs.colour == rhs.colour
                && lhs.exercises.map(\.id) == rhs.exercises.map(\.id) && lhs.exercises.map(\.name) == rhs.exercises.map(\.name)
        }
    }

    /// What is known of one exercise for the client: its newest scored result, and its newest result of all.
    public struct Latest: Sendable, Equatable {
        public var score: Double?
        public var values: [String: Double]
        public var recordedAt: Date

        public init(score: Double?, values: [String: Double], recordedAt: Date) {
            self.score = score
            self.values = values
            self.recordedAt = recordedAt
        }
    }

    public struct ExerciseScore: Sendable, Equatable {
        public var exerciseId: String
        public var name: String
        public var score: Double?
        public var latest: Latest?
    }

    public struct Slice: Sendable, Equatable {
        public var categoryId: String
        public var name: String
        public var colour: String
        public var score: Double?
        public var flagged: Bool
        public var exercises: [ExerciseScore]

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
