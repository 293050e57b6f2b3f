import Foundation

/// How clients are sorted and found: by family then given name, ignoring case and accents, and by prefixes of
/// their names, email and phone digits.
public enum ClientSearch {
    /// Lower-case, without diacritics: "Zoë Ångström" → "zoe angstrom".
    public static func fold(_ text: String) -> String {
        // ASCII (most names, every email) folds to its lower case: no locale and no bridging, which cost more
        // than the rest of saving a client.
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
        }
        return text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: posix)
    }

    private static let posix = Locale(identifier: "en_US_POSIX")

    /// The sort key: family name, then given name, folded. A separator below any letter keeps "Li, Ann" before
    /// "Lia, Ann".
    public static func sortKey(for client: Client) -> String {
        fold(client.familyName ?? "") + "\u{1}" + fold(client.givenName ?? "")
    }

    /// The terms a client can be found by: each word of each name, the email and its local part, the phone's digits.
    public static func terms(for client: Client) -> Set<String> {
        var terms: Set<String> = []
        for name in [client.givenName, client.familyName].compactMap({ $0 }) {
            terms.formUnion(words(fold(name)))
        }
        if let email = client.email.map(fold) {
            terms.insert(email)
        }
        if let phone = client.phone {
            let digits = phoneDigits(phone)
            terms.insert(digits)
            // Also without a trunk zero or an international prefix (whose length varies: 1 to 3 digits), so that
            // "21 555" finds both "021 555 1234" and "+64 21 555 1234".
            if digits.hasPrefix("0") { terms.insert(String(digits.dropFirst())) }
            if phone.trimmingWhiteSpace().hasPrefix("+") {
                for length in 1...3 where digits.count > length { terms.insert(String(digits.dropFirst(length))) }
            }
        }
        return terms.filter { !$0.isEmpty }
    }

    /// The words of a search query, each of which must prefix-match one of a client's terms. Words past the
    /// eighth are ignored: they bound the work a query can ask for.
    public static func queryWords(_ query: String) -> [String] {
        // A query of only digits and phone punctuation is one phone number, however it is grouped.
        if query.contains(where: \.isNumber), query.allSatisfy({ $0.isNumber || $0.isWhitespace || "+-().".contains($0) }) {
            return [phoneDigits(query)]
        }
        let words = words(fold(query)).map { word in
            word.allSatisfy({ $0.isNumber || "+-().".contains($0) }) ? phoneDigits(word) : word
        }.filter { !$0.isEmpty }
        return Array(words.prefix(8))
    }

    static func words(_ text: String) -> [String] {
        text.split(whereSeparator: { $0.isWhitespace || $0 == "," }).map(String.init)
    }

    static func phoneDigits(_ phone: String) -> String {
        String(phone.filter(\.isNumber))
    }
}
