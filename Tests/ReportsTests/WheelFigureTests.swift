import Foundation
import HealthwheelCore
import Testing

@testable import Reports

/// A client's wheel as the shipped packs make it: five categories, one flagged, one without a score.
enum SampleWheel {
    static let day = Date(timeIntervalSince1970: 1_800_000_000)

    static func slices(flagBelow: Double = 4) -> [HealthWheel.Slice] {
        let categories = [
            HealthWheel.Category(
                id: "body-composition",
                name: "Body composition",
                colour: "#f49d37",
                exercises: [("bmi", "BMI"), ("waist", "Waist")]
            ),
            HealthWheel.Category(id: "cardiovascular", name: "Cardiovascular", colour: "#d7263d", exercises: [("rhr", "Resting heart rate")]),
            HealthWheel.Category(
                id: "endurance",
                name: "Endurance",
                colour: "#6a4c93",
                exercises: [("push-ups", "Push-ups"), ("cooper", "Cooper run")]
            ),
            HealthWheel.Category(id: "flexibility", name: "Flexibility", colour: "#1b998b", exercises: [("reach", "Sit and reach")]),
            HealthWheel.Category(id: "strength", name: "Strength", colour: "#3f88c5", exercises: [("grip", "Grip strength")]),
        ]
        let scores: [String: Double] = ["bmi": 8, "waist": 7, "rhr": 6.5, "push-ups": 2, "cooper": 4, "grip": 9.5]
        let latest = scores.mapValues { HealthWheel.Latest(score: $0, values: [:], recordedAt: day) }
        return HealthWheel.slices(categories, scored: latest, newest: latest, flagBelow: flagBelow)
    }

    /// The same client half a year earlier: endurance and strength lower, cardiovascular higher, body composition
    /// not yet measured.
    static func earlier() -> [HealthWheel.Slice] {
        let scores: [String: Double] = ["rhr": 8, "push-ups": 1, "cooper": 2, "grip": 6, "reach": 5]
        let latest = scores.mapValues { HealthWheel.Latest(score: $0, values: [:], recordedAt: day.addingTimeInterval(-180 * 86_400)) }
        let categories = slices().map { slice in
            HealthWheel.Category(
                id: slice.categoryId,
                name: slice.name,
                colour: slice.colour,
                exercises: slice.exercises.map { ($0.exerciseId, $0.name) }
            )
        }
        return HealthWheel.slices(categories, scored: latest, newest: latest, flagBelow: 4)
    }

    static func compared() throws -> WheelFigure {
        let strings = try ReportStrings(language: "en")
        return WheelFigure(
            slices: slices(),
            theme: theme,
            width: 512,
            words: .init(strings),
            compared: .init(slices: earlier(), on: day.addingTimeInterval(-180 * 86_400), strings: strings)
        )
    }

    static let theme = Theme(
        id: "default",
        name: "Healthwheel",
        colours: Theme.Colours(
            tint: HexColour("#1f5f8b")!,
            background: HexColour("#ffffff")!,
            text: HexColour("#1d2329")!,
            muted: HexColour("#5f6b76")!,
            flag: HexColour("#d32f2f")!,
            target: HexColour("#2e7d32")!
        )
    )
}

@Suite struct WheelFigureTests {
    @Test func slicesShareTheCircleEquallyFromTwelveOClock() {
        let figure = WheelFigure(slices: SampleWheel.slices(), theme: SampleWheel.theme, width: 512)
        #expect(figure.slices.count == 5)
        for (index, slice) in figure.slices.enumerated() {
            #expect(abs(slice.startAngle - Double(index) * 2 * .pi / 5) < 1e-12)
            #expect(abs(slice.endAngle - slice.startAngle - 2 * .pi / 5) < 1e-12)
        }
    }

    /// Radius grows in proportion to the score from the hub's edge, so no score, however low, hides under it;
    /// 10 reaches the target ring.
    @Test func aSliceReachesOutInProportionToItsScoreFromTheHub() throws {
        let figure = WheelFigure(slices: SampleWheel.slices(), theme: SampleWheel.theme, width: 512)
        let band = figure.rimRadius - figure.hubRadius
        let strength = try #require(figure.slices.last?.radius)
        #expect(abs(strength - (figure.hubRadius + band * 0.95)) < 1e-9)
        let endurance = try #require(figure.slices[2].radius)
        #expect(endurance > figure.hubRadius && abs(endurance - (figure.hubRadius + band * 0.3)) < 1e-9)
        #expect(abs(figure.targetRadius - figure.rimRadius) < 1e-9)
        #expect(figure.slices[3].radius == nil)
    }

    @Test func aFlaggedSliceHasAMarkerAndNamesItsWeakestExercise() {
        let figure = WheelFigure(slices: SampleWheel.slices(), theme: SampleWheel.theme, width: 512)
        let endurance = figure.slices[2]
        #expect(endurance.flagged && endurance.marker != nil)
        #expect(endurance.lines.map(\.text) == ["Endurance", "3", "Push-ups"])
        #expect(endurance.lines[2].colour == SampleWheel.theme.colours.flag)
        #expect(figure.slices.filter { $0.marker != nil }.map(\.categoryId) == ["endurance"])
        #expect(figure.slices[3].lines.map(\.text) == ["Flexibility", "no score yet"])
        #expect(endurance.summary == "Endurance 3, flagged: Push-ups" && figure.slices[3].summary == "Flexibility no score yet")
    }

    @Test func theThemesCategoryColoursOverrideThePacks() {
        var theme = SampleWheel.theme
        theme.categoryColours = ["strength": HexColour("#0072b2")!]
        let figure = WheelFigure(slices: SampleWheel.slices(), theme: theme, width: 512)
        #expect(figure.slices.map(\.colour.description) == ["#f49d37", "#d7263d", "#6a4c93", "#1b998b", "#0072b2"])
    }

    @Test func labelsSitOutsideTheRingOnTheSideTheirSliceFaces() {
        let figure = WheelFigure(slices: SampleWheel.slices(), theme: SampleWheel.theme, width: 512)
        for slice in figure.slices {
            let dx = slice.labelAnchor.x - figure.centre.x
            let dy = slice.labelAnchor.y - figure.centre.y
            #expect((dx * dx + dy * dy).squareRoot() > figure.rimRadius)
        }
        #expect(figure.slices.map(\.alignment) == [.start, .start, .middle, .end, .end])
    }
}

@Suite struct WheelSVGTests {
    @Test func theSameWheelAlwaysGivesTheSameBytes() {
        let first = WheelSVG.render(WheelFigure(slices: SampleWheel.slices(), theme: SampleWheel.theme, width: 512), title: "Health wheel")
        let second = WheelSVG.render(WheelFigure(slices: SampleWheel.slices(), theme: SampleWheel.theme, width: 512), title: "Health wheel")
        #expect(first == second)
    }

    @Test func textFromPacksIsEscaped() {
        var slices = SampleWheel.slices()
        slices[0].name = "<script>alert(\"x\")</script> & co"
        let svg = WheelSVG.render(WheelFigure(slices: slices, theme: SampleWheel.theme, width: 512), title: "Health wheel")
        #expect(!svg.contains("<script>"))
        #expect(svg.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co"))
    }

    @Test func numbersAreWrittenShortAndStable() {
        #expect(WheelSVG.number(1.006) == "1.01")
        #expect(WheelSVG.number(1.004) == "1")
        #expect(WheelSVG.number(-0.001) == "0")
        #expect(WheelSVG.number(12.5) == "12.5")
        #expect(WheelSVG.number(256) == "256")
    }

    /// The picture as committed: compare with `Tests/ReportsTests/Golden/wheel-default-512.svg`, which was looked
    /// at as a picture before it was committed. Set `HEALTHWHEEL_UPDATE_GOLDEN=1` to write it again.
    @Test func matchesTheGoldenFile() throws {
        let svg = WheelSVG.render(WheelFigure(slices: SampleWheel.slices(), theme: SampleWheel.theme, width: 512), title: "Health wheel")
        let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/wheel-default-512.svg")
        if ProcessInfo.processInfo.environment["HEALTHWHEEL_UPDATE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: golden.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(svg.utf8).write(to: golden)
        }
        #expect(svg == (try String(contentsOf: golden, encoding: .utf8)))
    }
}

@Suite struct WheelPNGTests {
    static func render(width: Double = 512) throws -> [UInt8] {
        try WheelPNG.render(WheelFigure(slices: SampleWheel.slices(), theme: SampleWheel.theme, width: width))
    }

    @Test func isAPNGOfTheFiguresSizeAndTheSameBytesEachTime() throws {
        let png = try Self.render(width: 640)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        // IHDR: width and height, big-endian, right after the signature and the chunk's length and type.
        let width = png[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let height = png[20..<24].reduce(0) { $0 << 8 | Int($1) }
        #expect(width == 640 && height == 480)
        #expect(try Self.render(width: 640) == png)
    }

    /// The picture as committed (`Golden/wheel-default-512.png`), looked at before it was committed. Set
    /// `HEALTHWHEEL_UPDATE_GOLDEN=1` to write it again.
    @Test func matchesTheGoldenFile() throws {
        let png = try Self.render()
        let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/wheel-default-512.png")
        if ProcessInfo.processInfo.environment["HEALTHWHEEL_UPDATE_GOLDEN"] == "1" { try Data(png).write(to: golden) }
        #expect(png == Array(try Data(contentsOf: golden)))
    }
}

/// `?compare=`: the wheel of an earlier date as a faint outline behind today's, with a dashed edge over it.
@Suite struct WheelComparisonTests {
    @Test func eachSliceScoredThenGetsAnOutlineAtThatScore() throws {
        let figure = try SampleWheel.compared()
        let past = figure.slices.map { $0.pastRadius.map { ($0 - figure.hubRadius) / (figure.rimRadius - figure.hubRadius) * 10 } }
        #expect(past.map { $0.map { ($0 * 10).rounded() / 10 } } == [nil, 8, 1.5, 5, 6])
        #expect(figure.legend == "Outline: the wheel on 19 Jul 2026")
        #expect(WheelFigure(slices: SampleWheel.slices(), theme: SampleWheel.theme, width: 512).slices.allSatisfy { $0.pastRadius == nil })
    }

    /// The pictures as committed (`Golden/wheel-compare-512.svg` and `.png`), looked at before they were committed.
    /// Set `HEALTHWHEEL_UPDATE_GOLDEN=1` to write them again.
    @Test func matchesTheGoldenFiles() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
        let svg = Array(WheelSVG.render(try SampleWheel.compared(), title: "Health wheel").utf8)
        let png = try WheelPNG.render(try SampleWheel.compared())
        if ProcessInfo.processInfo.environment["HEALTHWHEEL_UPDATE_GOLDEN"] == "1" {
            try Data(svg).write(to: folder.appendingPathComponent("wheel-compare-512.svg"))
            try Data(png).write(to: folder.appendingPathComponent("wheel-compare-512.png"))
        }
        #expect(svg == Array(try Data(contentsOf: folder.appendingPathComponent("wheel-compare-512.svg"))))
        #expect(png == Array(try Data(contentsOf: folder.appendingPathComponent("wheel-compare-512.png"))))
    }
}
