import Credentials
import Foundation
import HealthwheelCore
import Services

/// On an empty database: a demo company with one admin, whose login is printed once (never logged), and three
/// sample clients with completed screenings and a year of monthly results, so that a first run can at once show a
/// wheel, a report and an email. `serve --no-demo` (or `HEALTHWHEEL_NO_DEMO=1`) starts empty instead.
enum DemoCompany {
    static let email = "admin@demo.healthwheel.example"

    /// Creates the demo through the server's own use cases, as its admin would, and prints its login with the
    /// web console's address.
    static func createIfEmpty(_ useCases: UseCases, consoleAddress: String) async throws {
        guard try await useCases.trainers.company.isEmpty() else { return }
        let now = useCases.clock.now
        let company = try await useCases.trainers.company.create(name: "Demo Fitness", at: now)
        let password = GeneratedPassword.make()
        let admin = try await useCases.trainers.accounts.create(
            NewTrainer(email: email, name: "Demo Admin", role: Role.admin.rawValue, password: password),
            in: company.id,
            by: .operatorCommand
        )
        try await addSampleClients(useCases, admin: admin, now: now)
        // Written straight to the terminal (unbuffered, not through the logger): shown once, never logged.
        let notice = """

            Demo login (shown only this once; change the password after signing in):
              email:    \(email)
              password: \(password)
            Open \(consoleAddress) in a browser and sign in with it: three sample clients have a year of results.
            The API is under \(consoleAddress)/v1 (the contract: \(consoleAddress)/openapi.yaml).


            """
        FileHandle.standardOutput.write(Data(notice.utf8))
    }

    /// A sample client and how their results went over the year: each exercise's values from the first month to
    /// the last (straight lines, a little noise), in stored units.
    struct Sample {
        var given, family, birthDate, sex, goal: String
        var height, mass: Double
        var months: Int
        var exercises: [String: [String: (first: Double, last: Double)]]
        var observations: [Int: (exercise: String, text: String)]
    }

    static let samples = [
        Sample(
            given: "Aroha",
            family: "Ngata",
            birthDate: "1988-04-12",
            sex: "female",
            goal: "Run a half marathon in May",
            height: 1.68,
            mass: 64,
            months: 12,
            exercises: [
                "resting-heart-rate": ["heartRate": (74, 61)], "blood-pressure": ["systolic": (128, 116), "diastolic": (84, 75)],
                "push-ups": ["count": (9, 24)], "cooper-12-minute-run": ["distance": (1750, 2350)], "sit-and-reach": ["reach": (0.22, 0.34)],
                "grip-strength": ["grip": (24, 30)], "body-fat-percentage": ["bodyFat": (31, 25)],
            ],
            observations: [0: ("push-ups", "Knees down after the first six; strong will."), 11: ("cooper-12-minute-run", "Even pacing throughout.")]
        ),
        Sample(
            given: "James",
            family: "Wilson",
            birthDate: "1972-09-30",
            sex: "male",
            goal: "Keep up with the grandchildren",
            height: 1.80,
            mass: 92,
            months: 12,
            exercises: [
                "resting-heart-rate": ["heartRate": (78, 70)], "push-ups": ["count": (3, 5)], "cooper-12-minute-run": ["distance": (1150, 1250)],
                "chair-stand-30s": ["stands": (11, 14)], "waist-circumference": ["waist": (1.04, 0.98)], "grip-strength": ["grip": (38, 41)],
            ],
            observations: [6: ("push-ups", "Shoulder discomfort: kept to a short range."), 11: ("waist-circumference", "Down 6 cm this year.")]
        ),
        Sample(
            given: "Sofía",
            family: "García",
            birthDate: "1996-01-22",
            sex: "female",
            goal: "Get back to netball after knee surgery",
            height: 1.63,
            mass: 58,
            months: 6,
            exercises: [
                "resting-heart-rate": ["heartRate": (66, 62)], "sit-and-reach": ["reach": (0.28, 0.31)], "back-scratch": ["reach": (0.01, 0.04)],
                "chair-stand-30s": ["stands": (16, 21)], "push-ups": ["count": (14, 19)],
            ],
            observations: [0: ("chair-stand-30s", "Cleared by her physio to load the knee.")]
        ),
    ]

    static let screeningAnswers: [String: JSONValue] = [
        "heartCondition": .bool(false), "chestPain": .bool(false), "dizziness": .bool(false), "otherChronicCondition": .bool(false),
        "prescribedMedication": .bool(false), "boneJointProblem": .bool(false), "supervisedActivityOnly": .bool(false),
        "activityLevel": .string("light"), "smoker": .bool(false), "currentInjuries": .bool(false),
    ]

    /// `count` dates a calendar month apart (UTC), the last one `end`: one in each month, whatever the day
    /// (from 31 March, the month before is 28 or 29 February, not 3 March).
    static func monthlyDates(_ count: Int, endingAt end: Date) -> [Date] {
        (0..<count).map { month in Calendar.utc.date(byAdding: .month, value: month - (count - 1), to: end)! }
    }

    private static func addSampleClients(_ useCases: UseCases, admin: Trainer, now: Date) async throws {
        let (roster, screenings, results) = (useCases.clients.roster, useCases.screenings.answers, useCases.results)
        var noise = SystemRandomNumberGenerator()
        for sample in samples {
            var edit = ClientEdit()
            edit.givenName = .set(sample.given)
            edit.familyName = .set(sample.family)
            // An address under .example (RFC 2606), so an emailed demo report can never reach a real inbox.
            let local = "\(sample.given).\(sample.family)".folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
            edit.email = .set("\(local)@demo.healthwheel.example")
            edit.birthDate = .set(sample.birthDate)
            edit.sex = .set(sample.sex)
            edit.goal = .set(sample.goal)
            edit.height = .set(MeasurementInput(value: sample.height))
            edit.mass = .set(MeasurementInput(value: sample.mass))
            let client = try await roster.create(edit, by: admin).client
            let screening = try await screenings.start("screening", client: client.id, by: admin)
            _ = try await screenings.answer(screeningAnswers, screening: screening.id, client: client.id, by: admin)
            _ = try await screenings.complete(screening: screening.id, client: client.id, by: admin)
            for (month, recordedAt) in monthlyDates(sample.months, endingAt: now.addingTimeInterval(-3600)).enumerated() {
                let progress = sample.months == 1 ? 1 : Double(month) / Double(sample.months - 1)
                for (exercise, fields) in sample.exercises.sorted(by: { $0.key < $1.key }) {
                    let values = fields.mapValues { range in
                        let value = range.first + (range.last - range.first) * progress
                        let wobble = month == 0 || month == sample.months - 1 ? 0 : Double.random(in: -0.03...0.03, using: &noise)
                        return MeasurementInput(value: (value * (1 + wobble) * 1000).rounded() / 1000)
                    }
                    var resultEdit = ResultEdit(values: .set(values), recordedAt: .set(recordedAt))
                    if let note = sample.observations[month], note.exercise == exercise { resultEdit.observations = .set(note.text) }
                    _ = try await results.record(
                        NewResult(clientId: client.id, exerciseId: exercise, edit: resultEdit, amendRecent: false),
                        by: admin
                    )
                }
            }
        }
    }
}
