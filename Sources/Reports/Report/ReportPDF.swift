import Foundation
import HealthwheelCore

/// Lays a `ClientReport` out on A4 pages (`PDFCanvas`): the theme's font embedded, text kept as text (selectable,
/// searchable), the wheel and charts drawn as vectors, "Page n of N" and the company's footer on every page.
public enum ReportPDF {
    /// The report as PDF bytes, laid out in one pass (the pages are numbered once the last is known). Takes a few
    /// milliseconds of CPU: call it on a drawing thread. Throws when the theme's font cannot be read.
    public static func render(_ report: ClientReport) throws -> [UInt8] {
        let canvas = PDFCanvas(
            width: PDFLayout.pageWidth,
            height: PDFLayout.pageHeight,
            title: "\(report.labels.title): \(report.clientName)",
            author: report.companyName,
            created: report.generatedAt
        )
        PDFLayout(report, canvas: canvas).run()
        return try canvas.pdf()
    }
}

/// One pass over the report, top to bottom, starting a page whenever the next block does not fit.
private final class PDFLayout {
    static let (pageWidth, pageHeight, margin) = (595.28, 841.89, 48.0)

    let report: ClientReport
    let canvas: PDFCanvas
    let colours: Theme.Colours
    let font: String
    var y = margin
    /// The company's footer, wrapped to the width beside the page number; every page ends with it.
    lazy var footerLines: [String] = report.footer.map { wrapped($0, size: 8, bold: false, room: width - 90) } ?? []

    init(_ report: ClientReport, canvas: PDFCanvas) {
        self.report = report
        self.canvas = canvas
        colours = report.theme.colours
        font = report.theme.font
    }

    var width: Double { Self.pageWidth - 2 * Self.margin }
    var bottom: Double { Self.pageHeight - Self.margin - 24 - 10 * Double(max(footerLines.count - 1, 0)) }

    func run() {
        startPage()
        header()
        wheel()
        summary()
        nextSteps()
        // Page 1 is the whole story at a glance; the details start on a page of their own.
        newPage()
        for category in report.categories { self.category(category) }
        sources()
        y += 8
        text(report.labels.note, size: 8.5, colour: colours.muted, after: 0)
        finishPage()
        let pages = canvas.pageCount
        for page in 0..<pages {
            canvas.onPage(page) {
                canvas.text(
                    report.pageLabel(page: page + 1, of: pages),
                    at: .init(x: Self.margin + width, y: Self.pageHeight - Self.margin + 6),
                    alignment: .end,
                    font: font,
                    size: 8,
                    bold: false,
                    colour: colours.muted
                )
            }
        }
    }

    // MARK: - Blocks

    private func header() {
        if let logo = report.logo {
            // Fitted in a 44-point box: a tall logo is as tall as a wide one is wide.
            let width = 44 * Double(logo.width) / Double(max(logo.width, logo.height))
            canvas.image(logo.bitmap, x: Self.margin, y: y, width: width)
        }
        let left = report.logo == nil ? 0.0 : 56
        text(report.companyName.uppercased(), size: 9, colour: colours.muted, indent: left, after: 2)
        text(report.labels.title, size: 20, bold: true, colour: colours.tint, indent: left, after: 10)
        rule(colours.tint, thickness: 2, after: 14)
        text(report.labels.preparedFor, size: 14, bold: true, after: 3)
        text("\(report.labels.period) · \(report.labels.generated)", size: 10, colour: colours.muted, after: 2)
        if !report.labels.trainer.isEmpty { text(report.labels.trainer, size: 10, colour: colours.muted, after: 2) }
        y += 6
        pair(report.labels.age, report.labels.ageValue)
        pair(report.labels.goal, report.labels.goalValue)
        y += 10
    }

    private func wheel() {
        let figure = report.wheelFigure(width: 512)
        let drawnWidth = width * 0.74
        let height = figure.height * drawnWidth / figure.width
        ensure(height + 40)
        text(report.labels.wheelTitle, size: 12, bold: true, after: 4)
        let x = Self.margin + (width - drawnWidth) / 2
        canvas.drawing(at: x, y, scale: drawnWidth / figure.width) { WheelPNG.draw(figure, on: canvas) }
        y += height + 4
        text(report.labels.wheelCaption, size: 8.5, colour: colours.muted, after: 12)
    }

    /// One row per category: a colour dot and name, the score now, the change since the period's start, and the
    /// exercise holding it back.
    private func summary() {
        let labels = report.labels
        let columns = [0.0, 0.34, 0.5, 0.67].map { Self.margin + width * $0 }
        let rooms = zip(columns, columns.dropFirst() + [Self.margin + width]).map { $1 - $0 - 8 }
        ensure(20 + 18 * Double(report.summary.count + 1))
        text(labels.summaryTitle, size: 12, bold: true, after: 4)
        let heads = [labels.summaryCategory, labels.summaryNow, labels.summaryChange, labels.summaryHoldingBack]
        let headLines = zip(heads, rooms).map { wrapped($0, size: 8.5, bold: false, room: $1) }
        for (index, lines) in headLines.enumerated() {
            for (line, text) in lines.enumerated() {
                canvas.text(
                    text,
                    at: .init(x: columns[index], y: y + 9 + 11 * Double(line)),
                    alignment: .start,
                    font: font,
                    size: 8.5,
                    bold: false,
                    colour: colours.muted
                )
            }
        }
        y += 3 + 11 * Double(headLines.map(\.count).max() ?? 1)
        rule(colours.muted.blended(with: colours.background, amount: 0.6), thickness: 0.5, after: 3)
        for row in report.summary {
            // A long name wraps within its column; the row grows to hold it.
            let name = wrapped(row.name, size: 10, bold: true, room: rooms[0] - 14)
            let holding = wrapped(row.holdingBack, size: 10, bold: false, room: rooms[3])
            let lines = max(name.count, holding.count)
            ensure(13 * Double(lines) + 4)
            let baseline = y + 11
            canvas.circle(centre: .init(x: columns[0] + 4, y: baseline - 3.5), radius: 4)
            canvas.fillPath(HexColour(row.colour) ?? colours.tint)
            let changeColour = colours.change(row.changeDirection)
            let cells: [(lines: [String], column: Int, bold: Bool, colour: HexColour)] = [
                (name, 0, true, colours.text), ([row.now], 1, true, colours.text), ([row.change], 2, false, changeColour),
                (holding, 3, false, row.flagged ? colours.flag : colours.text),
            ]
            for cell in cells {
                for (line, text) in cell.lines.enumerated() {
                    canvas.text(
                        text,
                        at: .init(x: columns[cell.column] + (cell.column == 0 ? 14 : 0), y: baseline + 13 * Double(line)),
                        alignment: .start,
                        font: font,
                        size: 10,
                        bold: cell.bold,
                        colour: cell.colour
                    )
                }
            }
            y += 13 * Double(lines) + 4
        }
        y += 10
    }

    /// "What to work on next": the flagged categories' weakest exercises, in plain words.
    private func nextSteps() {
        ensure(40)
        text(report.labels.nextTitle, size: 12, bold: true, after: 4)
        for step in report.nextSteps {
            let lines = wrapped(step, size: 10, bold: false, room: width - 14)
            ensure(13 * Double(lines.count))
            canvas.text("•", at: .init(x: Self.margin + 2, y: y + 10), alignment: .start, font: font, size: 10, bold: true, colour: colours.flag)
            text(step, size: 10, indent: 14, after: 3)
        }
    }

    /// The numbered citations the exercises refer to, each once.
    private func sources() {
        guard !report.sources.isEmpty else { return }
        ensure(60)
        rule(colours.muted.blended(with: colours.background, amount: 0.75), thickness: 0.75, after: 12)
        text(report.labels.sourcesTitle, size: 12, bold: true, after: 6)
        for (index, source) in report.sources.enumerated() {
            let number = "\(index + 1)."
            let lines = wrapped(source, size: 8, bold: false, room: width - 18)
            ensure(10.4 * Double(min(lines.count, 3)))
            canvas.text(number, at: .init(x: Self.margin, y: y + 8), alignment: .start, font: font, size: 8, bold: true, colour: colours.muted)
            text(lines: lines, size: 8, colour: colours.muted, indent: 18, after: 4)
        }
    }

    private func category(_ category: ClientReport.Category) {
        // A heading is never left alone at the foot of a page: it starts a page unless its first exercise fits.
        ensure(60 + (category.exercises.first.map(blockHeight) ?? 0))
        rule(colours.muted.blended(with: colours.background, amount: 0.75), thickness: 0.75, after: 12)
        let marker = category.flagged ? colours.flag : HexColour(category.colour) ?? colours.tint
        canvas.circle(centre: .init(x: Self.margin + 5, y: y + 9), radius: 4.5)
        canvas.fillPath(marker)
        canvas.text(
            category.score,
            at: .init(x: Self.margin + width, y: y + 13),
            alignment: .end,
            font: font,
            size: 10,
            bold: false,
            colour: colours.muted
        )
        text(category.name, size: 14, bold: true, indent: 16, after: 3)
        if category.flagged {
            text(
                "● \(category.flagLabel)" + (category.weakest.map { " · \($0)" } ?? ""),
                size: 10,
                bold: true,
                colour: colours.flag,
                indent: 16,
                after: 4
            )
        } else if let weakest = category.weakest {
            text(weakest, size: 10, colour: colours.muted, indent: 16, after: 4)
        }
        for exercise in category.exercises { self.exercise(exercise, in: category) }
        if let notMeasured = category.notMeasured {
            y += 4
            text(notMeasured, size: 9.5, colour: colours.muted, indent: 24, after: 8)
        }
        y += 6
    }

    private func exercise(_ exercise: ClientReport.ExerciseSection, in category: ClientReport.Category) {
        let indent = 24.0
        let chartWidth = width - indent - 40
        let chartHeight = blockHeight(exercise) - 70
        // An exercise starts on a new page unless its heading, figures and chart fit together.
        ensure(blockHeight(exercise))
        y += 6
        text(exercise.name, size: 11.5, bold: true, indent: indent, after: 3)
        pair(report.labels.latest, exercise.latest, indent: indent)
        let change = [exercise.arrow, exercise.change].filter { !$0.isEmpty }.joined(separator: " ")
        pair(report.labels.score, change.isEmpty ? exercise.score : "\(exercise.score)   \(change)", indent: indent)
        if let chart = report.trendChart(exercise, in: category) {
            let height = chartHeight - 18
            ensure(chartHeight)
            text(report.labels.trend, size: 8.5, colour: colours.muted, indent: indent, after: 2)
            canvas.drawing(at: Self.margin + indent, y, scale: chartWidth / TrendChart.width) { chart.draw(on: canvas) }
            y += height + 4
        }
        if !exercise.observations.isEmpty {
            text(report.labels.observations, size: 8.5, colour: colours.muted, indent: indent, after: 2)
            for observation in exercise.observations {
                text("\(observation.date)  \(observation.text)", size: 10, indent: indent, after: 2)
            }
        }
        media(exercise, indent: indent)
        text(exercise.sourceReference, size: 7.5, colour: colours.muted, indent: indent, after: 8)
    }

    /// The newest result's photos and video posters, 64 points high in rows that wrap, each with the trainer's
    /// caption under it (at most `captionLines` lines: the app holds it whole), then how many videos and photos
    /// there are beyond those shown.
    private func media(_ exercise: ClientReport.ExerciseSection, indent: Double) {
        guard !exercise.media.isEmpty else { return }
        let height = 64.0
        let captionSize = 7.5
        ensure(height + 30)
        text(report.labels.photos, size: 8.5, colour: colours.muted, indent: indent, after: 3)
        // Each item's slot: its picture, widened for a caption so that a portrait photo's words are not a column.
        let slots = exercise.media.map { item -> (item: ReportMedia, drawn: Double, slot: Double, caption: [String]) in
            let drawn = min(height * Double(item.width) / Double(max(item.height, 1)), width - indent)
            let slot = item.caption == nil ? drawn : max(drawn, 96)
            return (item, drawn, slot, item.caption.map { captionLines($0, size: captionSize, room: slot) } ?? [])
        }
        var rows: [[(item: ReportMedia, drawn: Double, slot: Double, caption: [String])]] = [[]]
        var x = 0.0
        for slot in slots {
            if !rows[rows.count - 1].isEmpty, x + slot.slot > width - indent {
                rows.append([])
                x = 0
            }
            rows[rows.count - 1].append(slot)
            x += slot.slot + 8
        }
        for row in rows {
            let rowHeight = height + (row.map { Double($0.caption.count) }.max() ?? 0) * captionSize * 1.3
            ensure(rowHeight)
            var x = Self.margin + indent
            for slot in row {
                canvas.image(slot.item.bitmap, x: x, y: y, width: slot.drawn)
                for (index, line) in slot.caption.enumerated() {
                    let baseline = y + height + captionSize * (1.3 * Double(index) + 1.2)
                    canvas.text(
                        line,
                        at: .init(x: x, y: baseline),
                        alignment: .start,
                        font: font,
                        size: captionSize,
                        bold: false,
                        colour: colours.muted
                    )
                }
                x += slot.slot + 8
            }
            y += rowHeight + 6
        }
        let counts = [exercise.videos, exercise.morePhotos].filter { !$0.isEmpty }.joined(separator: " · ")
        if !counts.isEmpty { text(counts, size: 8.5, colour: colours.muted, indent: indent, after: 2) }
        y += 2
    }

    /// How many lines of a caption a report shows under its picture.
    static let captionLines = 4

    /// A caption wrapped to `room`, at most `captionLines` lines; a line that does not fit (one long word) or
    /// that words were left out after ends in "…".
    private func captionLines(_ caption: String, size: Double, room: Double) -> [String] {
        let lines = wrapped(caption, size: size, bold: false, room: room)
        return lines.prefix(Self.captionLines).enumerated().map { index, line in
            fitted(line, size: size, room: room, cut: index == Self.captionLines - 1 && lines.count > Self.captionLines)
        }
    }

    /// `line` whole when it fits `room` and nothing was `cut` after it; else its longest start that fits with "…"
    /// after it, found in a few measurements (a caption is the tenant's text: no character-by-character search).
    private func fitted(_ line: String, size: Double, room: Double, cut: Bool) -> String {
        func width(_ text: String) -> Double { canvas.textWidth(text, font: font, size: size, bold: false) }
        if !cut, width(line) <= room { return line }
        let characters = Array(line)
        var (low, high) = (0, characters.count)
        while low < high {
            let middle = (low + high + 1) / 2
            if width(String(characters[..<middle]) + "…") <= room { low = middle } else { high = middle - 1 }
        }
        return String(characters[..<low]) + "…"
    }

    /// The height an exercise's heading, figures and chart need together.
    private func blockHeight(_ exercise: ClientReport.ExerciseSection) -> Double {
        let chartWidth = width - 24 - 40
        return 70 + (exercise.trend.count > 1 ? TrendChart.height * chartWidth / TrendChart.width + 18 : 0)
    }

    // MARK: - Pages

    private func startPage() {
        canvas.rectangle(x: 0, y: 0, width: Self.pageWidth, height: Self.pageHeight)
        canvas.fillPath(colours.background)
        y = Self.margin
    }

    private func finishPage() {
        let baseline = Self.pageHeight - Self.margin + 6
        let top = baseline - 10 * Double(max(footerLines.count - 1, 0))
        canvas.line(from: .init(x: Self.margin, y: top - 16), to: .init(x: Self.margin + width, y: top - 16))
        canvas.strokePath(colours.muted.blended(with: colours.background, amount: 0.6), width: 0.5)
        for (index, line) in footerLines.enumerated() {
            canvas.text(
                line,
                at: .init(x: Self.margin, y: top + 10 * Double(index)),
                alignment: .start,
                font: font,
                size: 8,
                bold: false,
                colour: colours.muted
            )
        }
    }

    /// Starts a new page unless `height` more points fit on this one.
    private func ensure(_ height: Double) {
        guard y + height > bottom else { return }
        newPage()
    }

    private func newPage() {
        finishPage()
        canvas.newPage()
        startPage()
    }

    // MARK: - Text

    /// A paragraph, wrapped at word boundaries to the width left after `indent`.
    private func text(_ content: String, size: Double, bold: Bool = false, colour: HexColour? = nil, indent: Double = 0, after: Double) {
        text(
            lines: wrapped(content, size: size, bold: bold, room: width - indent),
            size: size,
            bold: bold,
            colour: colour,
            indent: indent,
            after: after
        )
    }

    /// Lines already wrapped to the width left after `indent`, one below the other.
    private func text(lines: [String], size: Double, bold: Bool = false, colour: HexColour? = nil, indent: Double = 0, after: Double) {
        let lineHeight = size * 1.3
        for line in lines {
            ensure(lineHeight)
            canvas.text(
                line,
                at: .init(x: Self.margin + indent, y: y + size),
                alignment: .start,
                font: font,
                size: size,
                bold: bold,
                colour: colour ?? colours.text
            )
            y += lineHeight
        }
        y += after
    }

    /// A label and its value on one line (the value wrapping beside the label).
    private func pair(_ label: String, _ value: String, indent: Double = 0) {
        let size = 10.0
        let column = 92.0
        let lines = wrapped(value, size: size, bold: false, room: width - indent - column)
        ensure(size * 1.35 * Double(lines.count))
        canvas.text(
            label,
            at: .init(x: Self.margin + indent, y: y + size),
            alignment: .start,
            font: font,
            size: size,
            bold: false,
            colour: colours.muted
        )
        for line in lines {
            canvas.text(
                line,
                at: .init(x: Self.margin + indent + column, y: y + size),
                alignment: .start,
                font: font,
                size: size,
                bold: false,
                colour: colours.text
            )
            y += size * 1.35
        }
        y += 1
    }

    private func rule(_ colour: HexColour, thickness: Double, after: Double) {
        canvas.line(from: .init(x: Self.margin, y: y), to: .init(x: Self.margin + width, y: y))
        canvas.strokePath(colour, width: thickness)
        y += after
    }

    /// `content` in lines that fit `room`, broken at spaces (a word longer than the room has a line to itself).
    /// Each word is measured once, so wrapping stays linear in the text's length.
    private func wrapped(_ content: String, size: Double, bold: Bool, room: Double) -> [String] {
        // One lookup of the font for all the words (a report measures thousands), 0 wide if it cannot be read
        // (the document then fails as a whole).
        let measuring = canvas.font(font, bold: bold)
        func width(_ word: Substring) -> Double { measuring?.width(of: word, size: size) ?? 0 }
        let space = width(" ")
        var result: [String] = []
        // Split as bytes: a line feed and a space are one byte each in UTF-8 and never inside another character,
        // and splitting Character by Character cost a seventh of a PDF report. A line ending "\r\n" ends the line.
        for var paragraph in content.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            if paragraph.last == UInt8(ascii: "\r") { paragraph = paragraph.dropLast() }
            var line = ""
            var lineWidth = 0.0
            for bytes in paragraph.split(separator: UInt8(ascii: " ")) {
                let word = Substring(bytes)
                let wordWidth = width(word)
                if line.isEmpty {
                    (line, lineWidth) = (String(word), wordWidth)
                } else if lineWidth + space + wordWidth <= room {
                    line += " " + word
                    lineWidth += space + wordWidth
                } else {
                    result.append(line)
                    (line, lineWidth) = (String(word), wordWidth)
                }
            }
            result.append(line)
        }
        return result
    }
}
