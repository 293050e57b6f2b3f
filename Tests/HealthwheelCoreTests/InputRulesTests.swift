import HealthwheelCore
import Testing

@Suite struct EmailRuleTests {
    @Test func trimsSurroundingWhiteSpaceAndLowerCases() throws {
        #expect(try InputRules.email("  Ada.Lovelace@Example.ORG \n") == "ada.lovelace@example.org")
    }

    @Test func acceptsAPlainAddressUnchanged() throws {
        #expect(try InputRules.email("trainer@gym.example.com") == "trainer@gym.example.com")
    }

    @Test func rejectsAnAddressWithoutAnAtSign() {
        expectInvalidEmail("trainer.example.com")
    }

    @Test func rejectsAnAddressWithTwoAtSigns() {
        expectInvalidEmail("a@b@example.com")
    }

    @Test func rejectsAnEmptyLocalPart() {
        expectInvalidEmail("@example.com")
    }

    @Test func rejectsADomainWithoutADot() {
        expectInvalidEmail("trainer@localhost")
    }

    @Test func rejectsADomainStartingWithADot() {
        expectInvalidEmail("trainer@.example.com")
    }

    @Test func rejectsADomainEndingWithADot() {
        expectInvalidEmail("trainer@example.com.")
    }

    @Test func rejectsSpacesInside() {
        expectInvalidEmail("train er@example.com")
        expectInvalidEmail("trainer@exa mple.com")
        expectInvalidEmail("trainer@example.com\tx")
    }

    @Test func acceptsExactlyTheMaximumLength() throws {
        let address = longAddress(length: InputRules.maxEmailLength)
        #expect(try InputRules.email(address) == address)
    }

    @Test func rejectsMoreThan254Characters() {
        let address = longAddress(length: 255)
        let error = #expect(throws: ValidationError.self) { try InputRules.email(address) }
        #expect(error?.errors.map(\.field) == ["email"])
    }

    @Test func reportsTheFieldNameItWasGiven() {
        let error = #expect(throws: ValidationError.self) { try InputRules.email("nope", field: "contact.email") }
        #expect(error?.errors.map(\.field) == ["contact.email"])
    }

    private func expectInvalidEmail(_ raw: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let error = #expect(throws: ValidationError.self, "\(raw) was accepted", sourceLocation: sourceLocation) {
            try InputRules.email(raw)
        }
        #expect(error?.errors.count == 1, sourceLocation: sourceLocation)
        #expect(error?.errors.first?.field == "email", sourceLocation: sourceLocation)
    }

    /// `a…a@example.com` with exactly `length` characters.
    private func longAddress(length: Int) -> String {
        let domain = "@example.com"
        return String(repeating: "a", count: length - domain.count) + domain
    }
}

@Suite struct NameRuleTests {
    @Test func trimsSurroundingWhiteSpace() throws {
        #expect(try InputRules.name("  \t Sam Trainer \n") == "Sam Trainer")
    }

    @Test func keepsAccentsAndInnerSpacing() throws {
        #expect(try InputRules.name("Zoë Ångström") == "Zoë Ångström")
    }

    @Test func rejectsAnEmptyName() {
        expectInvalidName("")
    }

    @Test func rejectsAWhiteSpaceOnlyName() {
        expectInvalidName(" \t\n\u{00A0} ")
    }

    @Test func acceptsExactly200Characters() throws {
        let name = String(repeating: "é", count: InputRules.maxNameLength)
        #expect(try InputRules.name(name) == name)
    }

    @Test func rejectsMoreThan200Characters() {
        expectInvalidName(String(repeating: "x", count: InputRules.maxNameLength + 1))
    }

    @Test func countsLengthAsSentInCodePointsAsJSONSchemaDoes() throws {
        let name = String(repeating: "x", count: InputRules.maxNameLength - 6)
        #expect(try InputRules.name("   " + name + "   ") == name, "200 as sent, trimmed after")
        expectInvalidName("   " + name + "x   ")
        // "é" written as e + combining accent is one character but two code points, as maxLength counts it.
        let decomposed = String(repeating: "e\u{301}", count: InputRules.maxNameLength / 2)
        #expect(try InputRules.name(decomposed) == decomposed)
        expectInvalidName(decomposed + "e\u{301}")
    }

    @Test func rejectsControlCharactersInside() {
        expectInvalidName("Sam\u{0007}Trainer")
        expectInvalidName("Sam\tTrainer")
        expectInvalidName("Sam\nTrainer")
        expectInvalidName("Sam\u{007F}")
    }

    @Test func reportsTheFieldNameItWasGiven() {
        let error = #expect(throws: ValidationError.self) { try InputRules.name("", field: "companyName") }
        #expect(error?.errors.map(\.field) == ["companyName"])
    }

    private func expectInvalidName(_ raw: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let error = #expect(throws: ValidationError.self, "\(raw.debugDescription) was accepted", sourceLocation: sourceLocation) {
            try InputRules.name(raw)
        }
        #expect(error?.errors.map(\.field) == ["name"], sourceLocation: sourceLocation)
    }
}

@Suite struct NewPasswordRuleTests {
    @Test func rejects11Characters() {
        let error = #expect(throws: ValidationError.self) { try InputRules.newPassword(String(repeating: "p", count: 11)) }
        #expect(error?.errors.map(\.field) == ["password"])
    }

    @Test func accepts12Characters() throws {
        try InputRules.newPassword(String(repeating: "p", count: 12))
    }

    @Test func accepts256Characters() throws {
        try InputRules.newPassword(String(repeating: "p", count: 256))
    }

    @Test func rejects257Characters() {
        #expect(throws: ValidationError.self) { try InputRules.newPassword(String(repeating: "p", count: 257)) }
    }

    @Test func countsCharactersNotBytes() throws {
        // 12 characters, 24 UTF-8 bytes.
        try InputRules.newPassword(String(repeating: "ü", count: 12))
        #expect(throws: ValidationError.self) { try InputRules.newPassword(String(repeating: "ü", count: 11)) }
    }
}
