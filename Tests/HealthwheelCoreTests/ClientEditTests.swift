import Foundation
import HealthwheelCore
import Testing

/// `ClientEdit`: a client app's create or change, checked field by field and applied all or nothing.
@Suite struct ClientEditTests {
    static let today = CalendarDate(year: 2027, month: 1, day: 15)!
    static let created = Date(timeIntervalSince1970: 1_800_000_000)

    static func edit(_ json: String) throws -> ClientEdit {
        try JSONDecoder().decode(ClientEdit.self, from: Data(json.utf8))
    }

    static func existing() -> Client {
        var client = Client(companyId: UUID(), createdAt: created)
        client.givenName = "Ada"
        client.familyName = "Lovelace"
        client.email = "ada@example.com"
        client.phone = "021 555 1234"
        client.birthDate = CalendarDate(year: 1985, month: 3, day: 14)
        client.sex = .female
        client.height = 1.7
        client.mass = 60
        client.goal = "Run 5 km"
        client.notes = "Prefers mornings"
        return client
    }

    /// Applies `json` to `client` and returns the field errors, or nil when it was accepted.
    static func apply(_ json: String, to client: inout Client) throws -> [FieldError]? {
        let edit = try edit(json)
        do throws(ValidationError) {
            try edit.apply(to: &client, today: today)
            return nil
        } catch {
            return error.errors
        }
    }

    @Test func absentFieldsAreLeftAsTheyAre() throws {
        var client = Self.existing()
        #expect(try Self.apply(#"{"goal": "Swim 1 km"}"#, to: &client) == nil)
        var expected = Self.existing()
        expected.id = client.id
        expected.companyId = client.companyId
        expected.goal = "Swim 1 km"
        #expect(client == expected)
    }

    @Test func textIsTrimmed() throws {
        var client = Self.existing()
        let errors = try Self.apply(
            #"{"givenName": "  Grace \n", "familyName": "\tHopper ", "goal": "  Deadlift 100 kg  ", "notes": " knee ", "phone": " +1 555 0100 "}"#,
            to: &client
        )
        #expect(errors == nil)
        #expect(client.givenName == "Grace")
        #expect(client.familyName == "Hopper")
        #expect(client.goal == "Deadlift 100 kg")
        #expect(client.notes == "knee")
        #expect(client.phone == "+1 555 0100")
    }

    @Test func emailIsTrimmedAndLowerCased() throws {
        var client = Self.existing()
        #expect(try Self.apply(#"{"email": " Grace.Hopper@Navy.MIL "}"#, to: &client) == nil)
        #expect(client.email == "grace.hopper@navy.mil")
    }

    @Test func nullClearsAField() throws {
        var client = Self.existing()
        let errors = try Self.apply(
            #"{"email": null, "phone": null, "birthDate": null, "sex": null, "height": null, "mass": null, "goal": null, "notes": null}"#,
            to: &client
        )
        #expect(errors == nil)
        #expect(client.email == nil)
        #expect(client.phone == nil)
        #expect(client.birthDate == nil)
        #expect(client.sex == nil)
        #expect(client.height == nil)
        #expect(client.mass == nil)
        #expect(client.goal == nil)
        #expect(client.notes == nil)
        #expect(client.givenName == "Ada")
    }

    @Test func blankTextClearsAField() throws {
        var client = Self.existing()
        #expect(try Self.apply(#"{"goal": "   ", "email": ""}"#, to: &client) == nil)
        #expect(client.goal == nil)
        #expect(client.email == nil)
    }

    @Test func aFamilyNameAloneIsEnough() throws {
        var client = Client(companyId: UUID(), createdAt: Self.created)
        #expect(try Self.apply(#"{"familyName": "Curie"}"#, to: &client) == nil)
        #expect(client.familyName == "Curie")
        #expect(client.givenName == nil)
    }

    @Test func aClientNeedsAGivenOrAFamilyName() throws {
        var client = Client(companyId: UUID(), createdAt: Self.created)
        let errors = try #require(try Self.apply(#"{"email": "someone@example.com"}"#, to: &client))
        #expect(errors.count == 1)
        #expect(["givenName", "familyName"].contains(errors.first?.field))
        #expect(client.email == nil)
    }

    @Test func clearingBothNamesIsRefused() throws {
        var client = Self.existing()
        let errors = try #require(try Self.apply(#"{"givenName": null, "familyName": "  "}"#, to: &client))
        #expect(errors.count == 1)
        #expect(["givenName", "familyName"].contains(errors.first?.field))
        #expect(client.givenName == "Ada")
        #expect(client.familyName == "Lovelace")
    }

    @Test func measurementsAreStoredInSI() throws {
        var client = Self.existing()
        let errors = try Self.apply(#"{"height": {"value": 5, "unit": "ft", "inches": 11}, "mass": {"value": 154, "unit": "lb"}}"#, to: &client)
        #expect(errors == nil)
        #expect(client.height == 1.8034)
        #expect(client.mass == 69.8532)
    }

    @Test func aBadUnitNamesTheUnitField() throws {
        var client = Self.existing()
        let errors = try #require(try Self.apply(#"{"height": {"value": 180, "unit": "furlong"}}"#, to: &client))
        #expect(errors.map(\.field) == ["height.unit"])
        #expect(client.height == 1.7)
    }

    @Test func theBirthDateIsAPastCalendarDay() throws {
        var client = Self.existing()
        #expect(try Self.apply(#"{"birthDate": "1990-02-28"}"#, to: &client) == nil)
        #expect(client.birthDate == CalendarDate(year: 1990, month: 2, day: 28))
    }

    @Test func aFutureBirthDateIsRefused() throws {
        var client = Self.existing()
        let errors = try #require(try Self.apply(#"{"birthDate": "2027-01-16"}"#, to: &client))
        #expect(errors.map(\.field) == ["birthDate"])
        #expect(client.birthDate == CalendarDate(year: 1985, month: 3, day: 14))
    }

    @Test func aBirthDateOfTodayIsAccepted() throws {
        var client = Self.existing()
        #expect(try Self.apply(#"{"birthDate": "2027-01-15"}"#, to: &client) == nil)
    }

    @Test func aBirthDateMoreThan130YearsAgoIsRefused() throws {
        var client = Self.existing()
        #expect(try Self.apply(#"{"birthDate": "1896-01-01"}"#, to: &client)?.map(\.field) == ["birthDate"])
    }

    @Test func aBirthDateThatIsNoDayIsRefused() throws {
        var client = Self.existing()
        #expect(try Self.apply(#"{"birthDate": "1985-02-30"}"#, to: &client)?.map(\.field) == ["birthDate"])
        #expect(try Self.apply(#"{"birthDate": "14.03.1985"}"#, to: &client)?.map(\.field) == ["birthDate"])
    }

    @Test func sexMustBeMaleOrFemale() throws {
        var client = Self.existing()
        let errors = try #require(try Self.apply(#"{"sex": "other"}"#, to: &client))
        #expect(errors.map(\.field) == ["sex"])
        #expect(errors[0].message.contains("male") && errors[0].message.contains("female"))
        #expect(try Self.apply(#"{"sex": "male"}"#, to: &client) == nil)
        #expect(client.sex == .male)
    }

    @Test func aBadPhoneIsRefused() throws {
        var client = Self.existing()
        #expect(try Self.apply(#"{"phone": "call me maybe"}"#, to: &client)?.map(\.field) == ["phone"])
        #expect(try Self.apply(#"{"phone": "12"}"#, to: &client)?.map(\.field) == ["phone"])
        #expect(client.phone == "021 555 1234")
    }

    @Test func aBadEmailIsRefused() throws {
        var client = Self.existing()
        #expect(try Self.apply(#"{"email": "ada at example"}"#, to: &client)?.map(\.field) == ["email"])
        #expect(client.email == "ada@example.com")
    }

    @Test func aTooLongGoalIsRefused() throws {
        var client = Self.existing()
        let goal = String(repeating: "g", count: ClientEdit.maxGoalLength + 1)
        #expect(try Self.apply(#"{"goal": "\#(goal)"}"#, to: &client)?.map(\.field) == ["goal"])
        #expect(client.goal == "Run 5 km")
    }

    @Test func everyBadFieldIsReportedAndNothingIsApplied() throws {
        var client = Self.existing()
        let before = client
        let errors = try #require(
            try Self.apply(
                #"""
                {"givenName": "Grace", "email": "nope", "phone": "call me", "birthDate": "2999-01-01", "sex": "x",
                 "height": {"value": 9, "unit": "m"}, "mass": {"value": 70, "unit": "oz"}, "goal": "New goal"}
                """#,
                to: &client
            )
        )
        #expect(Set(errors.map(\.field)) == ["email", "phone", "birthDate", "sex", "height", "mass.unit"])
        #expect(client == before)
    }

    @Test func theAssignedTrainerCanBeSetAndCleared() throws {
        var client = Self.existing()
        let trainer = UUID()
        #expect(try Self.apply(#"{"assignedTrainerId": "\#(trainer.uuidString)"}"#, to: &client) == nil)
        #expect(client.assignedTrainerId == trainer)
        #expect(try Self.apply(#"{"assignedTrainerId": null}"#, to: &client) == nil)
        #expect(client.assignedTrainerId == nil)
    }

    @Test func decodingTellsAbsentFromNull() throws {
        let edit = try Self.edit(#"{"goal": null, "givenName": "Ada"}"#)
        #expect(edit.goal == .clear)
        #expect(edit.givenName == .set("Ada"))
        #expect(edit.familyName == .unchanged)
    }
}
