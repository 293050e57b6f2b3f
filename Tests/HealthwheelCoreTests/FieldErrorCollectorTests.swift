import HealthwheelCore
import Testing

@Suite struct FieldErrorCollectorTests {
    @Test func collectsSeveralErrorsAndThrowsThemTogether() {
        var collector = FieldErrorCollector()
        let email = collector.check { () throws(ValidationError) in try InputRules.email("not-an-address") }
        let name = collector.check { () throws(ValidationError) in try InputRules.name("   ") }
        collector.add("role", "is not a role")

        #expect(email == nil)
        #expect(name == nil)
        #expect(collector.errors.map(\.field) == ["email", "name", "role"])
        let thrown = #expect(throws: ValidationError.self) { try collector.throwIfAny() }
        #expect(thrown?.errors == collector.errors)
        #expect(thrown?.errors.last == FieldError("role", "is not a role"))
    }

    @Test func checkReturnsTheValueWhenValidationPasses() {
        var collector = FieldErrorCollector()
        let email = collector.check { () throws(ValidationError) in try InputRules.email(" Sam@Example.com ") }
        #expect(email == "sam@example.com")
        #expect(collector.errors.isEmpty)
    }

    @Test func throwIfAnyThrowsASingleError() {
        var collector = FieldErrorCollector()
        collector.add("email", "is already in use")
        let thrown = #expect(throws: ValidationError.self) { try collector.throwIfAny() }
        #expect(thrown == ValidationError("email", "is already in use"))
    }

    @Test func throwIfAnyDoesNotThrowWhenEmpty() throws {
        var collector = FieldErrorCollector()
        _ = collector.check { () throws(ValidationError) in try InputRules.name("Sam") }
        try collector.throwIfAny()
    }
}
