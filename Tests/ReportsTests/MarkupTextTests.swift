import Testing

@testable import Reports

/// Text written into markup (the wheel's SVG, the console's pages, a report's picture sources).
@Suite struct MarkupTextTests {
    @Test func theFiveCharactersAreEscapedAndControlCharactersLeftOut() {
        #expect(MarkupText.escaped(#"<a href="x">Tom & 'Jo'</a>"#) == "&lt;a href=&quot;x&quot;&gt;Tom &amp; &apos;Jo&apos;&lt;/a&gt;")
        #expect(MarkupText.escaped("a\u{0}b\u{1B}c\td\r\ne") == "abc\tde")
        #expect(MarkupText.escaped("Zoë 🏋️ ñandú & café") == "Zoë 🏋️ ñandú &amp; café")
    }

    @Test func textWithNothingToEscapeComesBackAsItIs() {
        let uri = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA+/="
        #expect(MarkupText.escaped(uri) == uri)
        #expect(MarkupText.escaped("") == "")
    }
}
