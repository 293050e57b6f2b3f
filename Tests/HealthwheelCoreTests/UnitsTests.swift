import Foundation
import HealthwheelCore
import Testing

/// `MeasurementInput.siValue` and `ImperialDisplay`: what a client sends in any accepted unit, stored as SI.
@Suite struct UnitsTests {
    static let heightRange = 0.3...2.75
    static let massRange = 1.0...500.0

    static func height(_ input: MeasurementInput) throws(ValidationError) -> Double {
        try input.siValue(of: .length, field: "height", range: heightRange)
    }

    static func mass(_ input: MeasurementInput) throws(ValidationError) -> Double {
        try input.siValue(of: .mass, field: "mass", range: massRange)
    }

    /// The error a measurement is refused with, or nil when it was accepted.
    static func refusal(_ body: () throws(ValidationError) -> Double) -> [FieldError]? {
        do throws(ValidationError) {
            _ = try body()
            return nil
        } catch {
            return error.errors
        }
    }

    static func decode(_ json: String) throws -> MeasurementInput {
        try JSONDecoder().decode(MeasurementInput.self, from: Data(json.utf8))
    }

    // MARK: - Length

    @Test func aBareNumberIsMetres() throws {
        #expect(try Self.height(MeasurementInput(value: 1.8)) == 1.8)
    }

    @Test func metresAreKeptAsTheyAre() throws {
        #expect(try Self.height(MeasurementInput(value: 1.75, unit: "m")) == 1.75)
    }

    @Test func centimetresBecomeMetres() throws {
        #expect(try Self.height(MeasurementInput(value: 180, unit: "cm")) == 1.8)
    }

    @Test func millimetresBecomeMetres() throws {
        #expect(try Self.height(MeasurementInput(value: 1805, unit: "mm")) == 1.805)
    }

    @Test func inchesBecomeMetres() throws {
        #expect(try Self.height(MeasurementInput(value: 71, unit: "in")) == 1.8034)
    }

    @Test func feetAndInchesBecomeMetres() throws {
        #expect(try Self.height(MeasurementInput(value: 5, unit: "ft", part: ("inches", 11))) == 1.8034)
    }

    @Test func feetAloneBecomeMetres() throws {
        #expect(try Self.height(MeasurementInput(value: 6, unit: "ft")) == 1.8288)
    }

    // MARK: - Mass

    @Test func kilogramsAreKeptAsTheyAre() throws {
        #expect(try Self.mass(MeasurementInput(value: 70, unit: "kg")) == 70)
    }

    @Test func gramsBecomeKilograms() throws {
        #expect(try Self.mass(MeasurementInput(value: 70_500, unit: "g")) == 70.5)
    }

    @Test func poundsBecomeKilogramsToATenthOfAGram() throws {
        // 154 × 0.45359237 = 69.85322498 kg
        #expect(try Self.mass(MeasurementInput(value: 154, unit: "lb")) == 69.8532)
    }

    @Test func stonesAndPoundsBecomeKilograms() throws {
        // 11 st 4 lb = 158 lb = 71.66759446 kg
        #expect(try Self.mass(MeasurementInput(value: 11, unit: "st", part: ("pounds", 4))) == 71.6676)
    }

    // MARK: - Refusals

    @Test func anUnknownUnitIsRefusedNamingTheUnitFieldAndListingTheAcceptedUnits() throws {
        let errors = try #require(Self.refusal { () throws(ValidationError) in try Self.height(MeasurementInput(value: 180, unit: "furlong")) })
        #expect(errors.map(\.field) == ["height.unit"])
        for unit in ["m", "cm", "mm", "in", "ft"] {
            #expect(errors[0].message.contains(unit), "\(errors[0].message) lists \(unit)")
        }
    }

    @Test func aMassUnitIsNotALengthUnit() throws {
        let errors = try #require(Self.refusal { () throws(ValidationError) in try Self.height(MeasurementInput(value: 70, unit: "kg")) })
        #expect(errors.map(\.field) == ["height.unit"])
    }

    @Test func anUnknownMassUnitListsTheMassUnits() throws {
        let errors = try #require(Self.refusal { () throws(ValidationError) in try Self.mass(MeasurementInput(value: 70, unit: "oz")) })
        #expect(errors.map(\.field) == ["mass.unit"])
        for unit in ["kg", "g", "lb", "st"] {
            #expect(errors[0].message.contains(unit), "\(errors[0].message) lists \(unit)")
        }
    }

    @Test func aValueOutsideTheRangeIsRefusedNamingTheField() throws {
        let tooTall = try #require(Self.refusal { () throws(ValidationError) in try Self.height(MeasurementInput(value: 3)) })
        #expect(tooTall.map(\.field) == ["height"])
        let tooShort = try #require(Self.refusal { () throws(ValidationError) in try Self.height(MeasurementInput(value: 20, unit: "cm")) })
        #expect(tooShort.map(\.field) == ["height"])
        let tooHeavy = try #require(Self.refusal { () throws(ValidationError) in try Self.mass(MeasurementInput(value: 1_200, unit: "lb")) })
        #expect(tooHeavy.map(\.field) == ["mass"])
    }

    @Test func centimetresSentAsMetresAreCaughtByTheRange() throws {
        let errors = try #require(Self.refusal { () throws(ValidationError) in try Self.height(MeasurementInput(value: 180)) })
        #expect(errors.map(\.field) == ["height"])
    }

    @Test func aNegativeValueIsRefused() throws {
        let errors = try #require(Self.refusal { () throws(ValidationError) in try Self.height(MeasurementInput(value: -1.8, unit: "m")) })
        #expect(errors.map(\.field) == ["height"])
        let negativeMass = try #require(Self.refusal { () throws(ValidationError) in try Self.mass(MeasurementInput(value: -70)) })
        #expect(negativeMass.map(\.field) == ["mass"])
    }

    /// Found by the measurement fuzzer (Fuzz/corpus/measurement): feet beyond `Int`'s range trapped while being
    /// checked as a whole number, which would have ended the server.
    @Test func feetBeyondAnyWholeNumberAreRefusedNotATrap() throws {
        for feet in [5.1e56, 9.3e18, -9.3e18, 1e308] {
            let errors = Self.refusal { () throws(ValidationError) in try Self.height(MeasurementInput(value: feet, unit: "ft", part: ("inches", 11)))
            }
            #expect(errors?.isEmpty == false, "\(feet)")
        }
        // A range wider than any whole number of feet still has its compound bounds.
        #expect(Quantity.length.compoundWholes(within: 0...1e300) == 0...9_007_199_254_740_991)
    }

    @Test func inchesWithCentimetresAreRefused() throws {
        let errors = try #require(
            Self.refusal { () throws(ValidationError) in try Self.height(MeasurementInput(value: 170, unit: "cm", part: ("inches", 3))) }
        )
        #expect(errors.map(\.field) == ["height.inches"])
    }

    @Test func poundsWithFeetAreRefused() throws {
        let errors = try #require(
            Self.refusal { () throws(ValidationError) in try Self.height(MeasurementInput(value: 5, unit: "ft", part: ("pounds", 3))) }
        )
        #expect(errors.map(\.field) == ["height.pounds"])
    }

    @Test func twelveOrMoreInchesBesideFeetAreRefused() throws {
        let errors = try #require(
            Self.refusal { () throws(ValidationError) in try Self.height(MeasurementInput(value: 5, unit: "ft", part: ("inches", 12))) }
        )
        #expect(errors.map(\.field) == ["height.inches"])
    }

    @Test func negativeInchesBesideFeetAreRefused() throws {
        let errors = try #require(
            Self.refusal { () throws(ValidationError) in try Self.height(MeasurementInput(value: 6, unit: "ft", part: ("inches", -1))) }
        )
        #expect(errors.map(\.field) == ["height.inches"])
    }

    @Test func beside_inches_feetAreWholeAndLeaveRoomForAnyInches() throws {
        // 0.3–2.75 m: 1 to 8 whole feet, so that 8 ft 11.9 in (2.74 m) and 1 ft 0 in (0.30 m) both fit.
        #expect(Quantity.length.compoundWholes(within: Self.heightRange) == 1...8)
        #expect(Quantity.mass.compoundWholes(within: Self.massRange) == 1...77)
        #expect(Quantity.heartRate.compoundWholes(within: 0...300) == nil)
        #expect(try Self.height(MeasurementInput(value: 8, unit: "ft", part: ("inches", 11.9))) == 2.7407)
        for feet in [0.0, 9, 5.5] {
            let errors = Self.refusal { () throws(ValidationError) in try Self.height(MeasurementInput(value: feet, unit: "ft", part: ("inches", 0)))
            }
            #expect(errors == [FieldError("height", "with inches, must be a whole number of ft from 1 to 8")], "\(feet) ft")
        }
        // Without inches, feet are any number in range: 9 ft is 2.74 m.
        #expect(try Self.height(MeasurementInput(value: 9, unit: "ft")) == 2.7432)
    }

    @Test func theRangeIsCheckedInTheUnitSentWithTheBoundsTheDocumentStates() throws {
        let inches = Self.heightRange.upperBound / 0.0254
        #expect(try Self.height(MeasurementInput(value: inches, unit: "in")) == 2.75)
        #expect(Self.refusal { () throws(ValidationError) in try Self.height(MeasurementInput(value: inches.nextUp, unit: "in")) } != nil)
        let lowest = Self.heightRange.lowerBound / 0.0254
        #expect(try Self.height(MeasurementInput(value: lowest, unit: "in")) == 0.3)
        #expect(Self.refusal { () throws(ValidationError) in try Self.height(MeasurementInput(value: lowest.nextDown, unit: "in")) } != nil)
    }

    @Test func aStopwatchTextIsDigitsOnly() throws {
        func seconds(_ text: String) throws -> Double {
            let unit = text.filter { $0 == ":" }.count == 2 ? "h:mm:ss" : "mm:ss"
            return try Self.decode(#"{"value": "\#(text)", "unit": "\#(unit)"}"#).value
        }
        #expect(try seconds("12:30") == 750)
        #expect(try seconds("0012:05.5") == 725.5)
        #expect(try seconds("1:02:30") == 3750)
        for text in ["1:5e1", "1:.5", "1:5.", "1:060", "+1:30", "١:30", "1:60", ":30", "1:02:60"] {
            #expect(throws: DecodingError.self, "\(text)") { try seconds(text) }
        }
    }

    // MARK: - Decoding

    @Test func decodesABareNumber() throws {
        #expect(try Self.decode("1.8") == MeasurementInput(value: 1.8))
    }

    @Test func decodesFeetAndInches() throws {
        #expect(try Self.decode(#"{"value": 5, "unit": "ft", "inches": 11}"#) == MeasurementInput(value: 5, unit: "ft", part: ("inches", 11)))
    }

    @Test func decodesAValueWithAUnit() throws {
        #expect(try Self.decode(#"{"value": 180, "unit": "cm"}"#) == MeasurementInput(value: 180, unit: "cm"))
    }

    @Test func decodingRefusesAnUnknownMember() {
        #expect(throws: DecodingError.self) { try Self.decode(#"{"value": 5, "unit": "ft", "feet": 1}"#) }
    }

    @Test func decodingRefusesTwoSubUnits() {
        #expect(throws: DecodingError.self) { try Self.decode(#"{"value": 5, "unit": "ft", "inches": 1, "pounds": 2}"#) }
    }

    @Test func decodingRefusesAnObjectWithoutAUnit() {
        #expect(throws: DecodingError.self) { try Self.decode(#"{"value": 180}"#) }
    }

    // MARK: - Imperial display

    @Test func heightIsShownInFeetAndInches() {
        let display = ImperialDisplay.height(metres: 1.8034)
        #expect(display.feet == 5)
        #expect(display.inches == 11)
        #expect(display.text == "5 ft 11 in")
    }

    @Test func heightJustUnderAFootBoundaryRoundsUpToTheNextFoot() {
        // 1.8285 m is 71.99 in: shown as 6 ft 0 in, never as 5 ft 12 in.
        let display = ImperialDisplay.height(metres: 1.8285)
        #expect(display.feet == 6)
        #expect(display.inches == 0)
        #expect(display.text == "6 ft 0 in")
    }

    @Test func heightKeepsATenthOfAnInch() {
        // 1.7 m is 66.929 in
        let display = ImperialDisplay.height(metres: 1.7)
        #expect(display.feet == 5)
        #expect(display.inches == 6.9)
        #expect(display.text == "5 ft 6.9 in")
    }

    @Test func massIsShownInPoundsToATenth() {
        let display = ImperialDisplay.mass(kilograms: 70)
        #expect(display.pounds == 154.3)
        #expect(display.text == "154.3 lb")
    }

    @Test func massEnteredInPoundsIsShownAsTheSamePounds() throws {
        let kilograms = try Self.mass(MeasurementInput(value: 154, unit: "lb"))
        #expect(ImperialDisplay.mass(kilograms: kilograms).text == "154 lb")
    }

    @Test func imperialDisplayConvertsLengthsMassesAndDistancesOnly() {
        #expect(ImperialDisplay.value(-0.1651, of: .length) == .init(value: -6.5, unit: "in", text: "-6.5 in"))
        #expect(ImperialDisplay.value(61.235, of: .mass) == .init(value: 135, unit: "lb", text: "135 lb"))
        #expect(ImperialDisplay.value(2414.016, of: .distance) == .init(value: 1.5, unit: "mi", text: "1.5 mi"))
        for quantity in [Quantity.duration, .heartRate, .count, .pressure, .percent, .ratio] {
            #expect(ImperialDisplay.value(42, of: quantity) == nil, "\(quantity)")
        }
    }
}
