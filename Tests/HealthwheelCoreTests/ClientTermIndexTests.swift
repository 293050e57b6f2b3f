import HealthwheelCore
import Testing

/// `ClientTermIndex`: the in-memory search must find exactly what the prefix rule finds.
@Suite struct ClientTermIndexTests {
    static let entries = [
        ["olivia", "smith", "olivia@example.com"],
        ["liam", "smithson", "0215551234", "215551234"],
        ["olivia", "smith-walker", "walker"],
        ["noah", "ngata"],
        [],
    ]

    @Test func everyWordMustPrefixSomeTerm() {
        let index = ClientTermIndex(termsByPosition: Self.entries)
        #expect(index.positions(matching: ["olivia"]) == [0, 2])
        #expect(index.positions(matching: ["smi"]) == [0, 1, 2])
        #expect(index.positions(matching: ["olivia", "smi"]) == [0, 2])
        #expect(index.positions(matching: ["olivia", "wal"]) == [2])
        #expect(index.positions(matching: ["21555"]) == [1])
        #expect(index.positions(matching: ["zed"]) == [])
        #expect(index.positions(matching: ["smith", "noah"]) == [])
    }

    @Test func noWordsMatchesEveryPosition() {
        #expect(ClientTermIndex(termsByPosition: Self.entries).positions(matching: []) == [0, 1, 2, 3, 4])
    }

    @Test func aPageStartsAtItsPositionAndStopsAtItsLimit() {
        let index = ClientTermIndex(termsByPosition: Self.entries)
        #expect(index.positions(matching: ["smi"], from: 1, limit: 1) == [1])
        #expect(index.positions(matching: ["smi"], from: 1) == [1, 2])
        #expect(index.positions(matching: ["smi"], from: 3) == [])
        #expect(index.positions(matching: [], from: 3, limit: 10) == [3, 4])
        #expect(index.positions(matching: [], from: 9, limit: 10) == [])
        #expect(index.positions(matching: ["olivia"], limit: 0) == [])
    }

    /// A word matching far more entries than the rarest one is checked on the candidates, not collected.
    @Test func aBroadWordIsCheckedOnTheCandidates() {
        let entries = (0..<1000).map { index in ["s\(index)"] + (index % 200 == 100 ? ["zed"] : []) }
        let index = ClientTermIndex(termsByPosition: entries)
        // "zed" has 5 entries; "s" (1000) and "s1" (111) have over 16 times as many, "s30" (11) has not.
        #expect(index.positions(matching: ["zed", "s"]) == [100, 300, 500, 700, 900])
        #expect(index.positions(matching: ["s1", "zed"]) == [100])
        #expect(index.positions(matching: ["s1", "zed"], from: 101) == [])
        #expect(index.positions(matching: ["zed", "s"], from: 101, limit: 2) == [300, 500])
        #expect(index.positions(matching: ["zed", "s30"]) == [300])
    }

    /// Terms shared by many entries keep their positions as a set; prefixes spanning them and rarer terms alike
    /// find what the rule finds.
    @Test func commonTermsFindWhatTheRuleFinds() {
        let entries = (0..<1000).map { index in
            ["t\(index)"] + (index % 2 == 0 ? ["olivia"] : ["oliver"]) + (index % 3 == 0 ? ["common"] : []) + (index % 7 == 0 ? ["olive"] : [])
        }
        let index = ClientTermIndex(termsByPosition: entries)
        let queries = [
            ["olivia"], ["oliv"], ["olive"], ["oli", "common"], ["common", "olivia"], ["t1", "olivia"], ["c", "t99"], ["o"], ["olivia", "oliver"],
        ]
        for words in queries {
            let expected = entries.indices.filter { position in
                words.allSatisfy { word in entries[position].contains { $0.hasPrefix(word) } }
            }
            #expect(index.positions(matching: words) == expected, "words \(words)")
            #expect(index.positions(matching: words, from: 500, limit: 3) == Array(expected.filter { $0 >= 500 }.prefix(3)), "words \(words)")
        }
    }

    @Test func agreesWithTheBruteForceRuleOnManyEntries() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abcdé")
        func word(_ length: Int) -> String { String((0..<length).map { _ in alphabet.randomElement(using: &generator)! }) }
        // More than 64 entries, so the bitset spans several words and a partial last word; pages start anywhere,
        // past the end too.
        let entries = (0..<200).map { _ in (0..<Int.random(in: 0...4, using: &generator)).map { _ in word(Int.random(in: 1...4)) } }
        let index = ClientTermIndex(termsByPosition: entries)
        for _ in 0..<300 {
            let words = (0..<Int.random(in: 1...3, using: &generator)).map { _ in word(Int.random(in: 1...2)) }
            let expected = entries.indices.filter { position in
                words.allSatisfy { word in entries[position].contains { Array($0.utf8).starts(with: Array(word.utf8)) } }
            }
            #expect(index.positions(matching: words) == expected, "words \(words)")
            let start = Int.random(in: 0...210, using: &generator)
            let limit = Int.random(in: 1...20, using: &generator)
            let page = Array(expected.filter { $0 >= start }.prefix(limit))
            #expect(index.positions(matching: words, from: start, limit: limit) == page, "words \(words) from \(start) limit \(limit)")
        }
    }
}
