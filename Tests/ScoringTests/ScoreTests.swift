import Scoring
import Testing

@Test func scriptSeesEveryGlobalOfTheContract() throws {
    let source = """
        local s = sex == "female" and 1 or 0
        return s + age / 10 + height + mass / 100 + value / 100 + values.reps / 10
        """
    let result = try score(source, subject: woman, value: 50, values: ["reps": 2]).get()
    #expect(abs(result - (1 + 4 + 1.70 + 0.65 + 0.5 + 0.2)) < 1e-9)
}

@Test func sexReachesTheScriptAsTheString() throws {
    let source = #"return sex == "male" and 7 or sex == "female" and 3 or 0"#
    let engine = ScoreEngine()
    #expect(try score(source, in: engine, subject: man).get() == 7)
    #expect(try score(source, in: engine, subject: woman).get() == 3)
}

@Test func ageIsAnIntegerAndMeasurementsAreFloats() throws {
    let source = #"return math.type(age) == "integer" and math.type(height) == "float" and math.type(value) == "float" and 1 or 0"#
    #expect(try score(source).get() == 1)
}

@Test func unknownHeightAndMassReachTheScriptAsNil() throws {
    let subject = ScoringSubject(sex: "male", age: 30, height: nil, mass: nil)
    #expect(try score("return (height == nil and mass == nil) and 1 or 0", subject: subject).get() == 1)
}

@Test func absentPrimaryValueReachesTheScriptAsNil() throws {
    #expect(try score("return value == nil and 1 or 0", value: nil, values: [:]).get() == 1)
}

@Test func valuesHoldEveryFieldByKey() throws {
    let values = ["systolic": 120.0, "diastolic": 80.0]
    #expect(try score("return (values.systolic - values.diastolic) / 10", values: values).get() == 4)
}

@Test func fractionalScoreIsReturnedUnrounded() throws {
    #expect(try score("return 7.25").get() == 7.25)
}

@Test(arguments: ["return 0", "return 10", "return 0.0", "return 10.0"])
func boundsOfTheScaleAreScores(source: String) {
    #expect(score(source).message == nil)
}

@Test(arguments: [
    ("return 'a'", "the script returned a string, not a number"),
    ("return '5'", "the script returned a string, not a number"),
    ("return nil", "the script returned nil, not a number"),
    ("return true", "the script returned a boolean, not a number"),
    ("return {}", "the script returned a table, not a number"),
    ("local x = 1", "the script did not return a value"),
    ("return 0/0", "the script returned NaN"),
    ("return 1/0", "the script returned inf, outside 0…10"),
    ("return -1/0", "the script returned -inf, outside 0…10"),
    ("return 11", "the script returned 11, outside 0…10"),
    ("return -1", "the script returned -1, outside 0…10"),
    ("return 10.5", "the script returned 10.5, outside 0…10"),
])
func resultThatIsNoScoreFailsWithAClearMessage(source: String, message: String) {
    let result = score(source)
    #expect(result.message == message)
    #expect(result.kind == .invalidResult)
}

@Test func runtimeErrorNamesTheLine() {
    let result = score("local x = nil\nreturn x.y")
    #expect(result.message == "[exercise] line 2: attempt to index a nil value (local 'x')")
    #expect(result.kind == .runtime)
}

@Test func raisedErrorMessageReachesTheCaller() {
    #expect(score(#"error("band table has no entry for this age")"#).message == "[exercise] line 1: band table has no entry for this age")
}

@Test func raisedNonStringErrorIsNamedByItsType() {
    #expect(score("error({})").message == "the script raised an error with a table value instead of a message")
}

@Test func hugeErrorMessageIsCutShort() throws {
    let message = try #require(score(#"error(string.rep("x", 10000), 0)"#).message)
    #expect(message.count == 501)
    #expect(message.hasSuffix("…"))
}
