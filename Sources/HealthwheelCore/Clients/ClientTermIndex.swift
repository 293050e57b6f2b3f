/// Finds list positions by search words in memory: every word must prefix one of the entry's terms (the rule
/// `ClientSearch` defines). Terms are compared as UTF-8 bytes, the order SQLite's BINARY collation uses, so the
/// in-memory list and the SQL query agree on every match.
public struct ClientTermIndex: Sendable {
    /// Every (term, position) pair, sorted by term: a word's matches are one contiguous range.
    private let terms: [[UInt8]]
    private let positions: [Int32]
    public let count: Int

    /// `termsByPosition[i]` are the terms of the entry at list position `i`.
    public init(termsByPosition: [[String]]) {
        var pairs: [([UInt8], Int32)] = []
        for (position, terms) in termsByPosition.enumerated() {
            for term in terms { pairs.append((Array(term.utf8), Int32(position))) }
        }
        pairs.sort { $0.0.lexicographicallyPrecedes($1.0) }
        terms = pairs.map(\.0)
        positions = pairs.map(\.1)
        count = termsByPosition.count
    }

    /// The positions, ascending, whose terms match every word. No words: every position.
    public func positions(matching words: [String]) -> [Int] {
        guard !words.isEmpty else { return Array(0..<count) }
        var matched = Bitset(count: count, filled: true)
        for word in words {
            var hits = Bitset(count: count, filled: false)
            let prefix = Array(word.utf8)
            var index = lowerBound(prefix)
            while index < terms.count, terms[index].starts(with: prefix) {
                hits.insert(Int(positions[index]))
                index += 1
            }
            matched.formIntersection(hits)
        }
        return matched.elements
    }

    private func lowerBound(_ key: [UInt8]) -> Int {
        var low = 0
        var high = terms.count
        while low < high {
            let middle = (low + high) / 2
            if terms[middle].lexicographicallyPrecedes(key) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

/// A fixed-size set of small integers, one bit each.
private struct Bitset {
    private var words: [UInt64]
    private let count: Int

    init(count: Int, filled: Bool) {
        self.count = count
        words = Array(repeating: filled ? .max : 0, count: (count + 63) / 64)
    }

    mutating func insert(_ element: Int) {
        words[element >> 6] |= 1 << UInt64(element & 63)
    }

    mutating func formIntersection(_ other: Bitset) {
        for index in words.indices { words[index] &= other.words[index] }
    }

    var elements: [Int] {
        var result: [Int] = []
        for (index, word) in words.enumerated() where word != 0 {
            var remaining = word
            while remaining != 0 {
                let element = index * 64 + remaining.trailingZeroBitCount
                if element < count { result.append(element) }
                remaining &= remaining - 1
            }
        }
        return result
    }
}
