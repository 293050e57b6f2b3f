/// Text made safe to write into markup: the wheel's SVG, the web console's pages.
public enum MarkupText {
    /// Text for XML or HTML content and quoted attribute values: `&`, `<`, `>`, `"` and `'` escaped, control
    /// characters (which XML 1.0 does not allow at all) left out.
    public static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default:
                // Control characters are not allowed in XML 1.0 at all.
                if character.unicodeScalars.allSatisfy({ $0.value >= 0x20 || $0 == "\t" }) { result.append(character) }
            }
        }
        return result
    }
}
