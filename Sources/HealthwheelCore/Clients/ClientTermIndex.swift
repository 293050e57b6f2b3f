/// Finds list positions by search words in memory: every word must prefix one of the entry's terms (the rule
/// `ClientSearch` defines). Terms are compared as UTF-8 bytes, the order SQLite's BINARY collation uses, so the
/// in-memory list and the SQL query agree on every match.
///
/// Compact, for rosters of 100,000 clients and more: every term's bytes sit end to end in one buffer, sorted, so a
/// word's matches are one contiguous range of term numbers found by two binary searches. A query starts from the
/// range of its rarest word, narrows it by the others, and stops once it has the page it was asked for.
public struct ClientTermIndex: Sendable {
    /// The terms' bytes end to end, sorted by bytes (then by position).
    private let bytes: [UInt8]
    /// Term number `k` is `bytes[starts[k]..<starts[k + 1]]`.
    private let starts: [UInt32]
    /// The position term number `k` belongs to.
    private let owners: [Int32]
    /// Position `p`'s term numbers are `termNumbers[firstTerm[p]..<firstTerm[p + 1]]`.
    private let termNumbers: [Int32]
    private let firstTerm: [Int32]
    /// The terms many entries share (a common given name), each with its positions as a set, in term order: a
    /// search for one is a copy or an intersection of a few kilobytes, not thousands of insertions.
    private let commonTerms: [CommonTerm]
    /// How many positions (entries) the index covers.
    public let count: Int

    /// The term numbers of one term many entries share, and their positions.
    private struct CommonTerm: Sendable {
        let numbers: Range<Int>
        let positions: Bitset
    }

    /// `termsByPosition[i]` are the terms of the entry at list position `i`.
    public init(termsByPosition: [[String]]) {
        var builder = Builder()
        for terms in termsByPosition { builder.append(terms) }
        self = builder.build()
    }

    /// Collects the terms of one position after another, then sorts them once.
    public struct Builder {
        private var bytes: [UInt8] = []
        private var starts: [UInt32] = [0]
        private var owners: [Int32] = []
        private var count = 0

        public init() {}

        /// The terms of the next position.
        public mutating func append(_ terms: some Sequence<String>) {
            for term in terms {
                bytes.append(contentsOf: term.utf8)
                starts.append(UInt32(bytes.count))
                owners.append(Int32(count))
            }
            count += 1
        }

        public func build() -> ClientTermIndex {
            let termCount = owners.count
            var order = Array(0..<termCount)
            bytes.withUnsafeBufferPointer { bytes in
                starts.withUnsafeBufferPointer { starts in
                    order.sort { left, right in
                        let order = ClientTermIndex.compare(bytes, starts, left, bytes, starts, right)
                        return order != 0 ? order < 0 : owners[left] < owners[right]
                    }
                }
            }
            var sortedBytes: [UInt8] = []
            sortedBytes.reserveCapacity(bytes.count)
            var sortedStarts: [UInt32] = [0]
            sortedStarts.reserveCapacity(termCount + 1)
            var sortedOwners: [Int32] = []
            sortedOwners.reserveCapacity(termCount)
            for term in order {
                sortedBytes.append(contentsOf: bytes[Int(starts[term])..<Int(starts[term + 1])])
                sortedStarts.append(UInt32(sortedBytes.count))
                sortedOwners.append(owners[term])
            }
            // Each position's term numbers, in one array indexed by position (counted, then filled).
            var firstTerm = [Int32](repeating: 0, count: count + 1)
            for owner in sortedOwners { firstTerm[Int(owner) + 1] += 1 }
            for position in 0..<count { firstTerm[position + 1] += firstTerm[position] }
            var filled = Array(firstTerm.dropLast())
            var termNumbers = [Int32](repeating: 0, count: termCount)
            for (number, owner) in sortedOwners.enumerated() {
                termNumbers[Int(filled[Int(owner)])] = Int32(number)
                filled[Int(owner)] += 1
            }
            // A set takes count / 8 bytes: worth it for a term of at least count / 32 entries, whose positions
            // alone take as much.
            var commonTerms: [CommonTerm] = []
            var runStart = 0
            sortedBytes.withUnsafeBufferPointer { bytes in
                sortedStarts.withUnsafeBufferPointer { starts in
                    for number in 0...termCount {
                        if number < termCount, number > runStart, ClientTermIndex.compare(bytes, starts, number, bytes, starts, runStart) == 0 {
                            continue
                        }
                        if number - runStart >= max(64, count / 32) {
                            var positions = Bitset(count: count)
                            for owner in sortedOwners[runStart..<number] { positions.insert(Int(owner)) }
                            commonTerms.append(CommonTerm(numbers: runStart..<number, positions: positions))
                        }
                        runStart = number
                    }
                }
            }
            return ClientTermIndex(
                bytes: sortedBytes,
                starts: sortedStarts,
                owners: sortedOwners,
                termNumbers: termNumbers,
                firstTerm: firstTerm,
                commonTerms: commonTerms,
                count: count
            )
        }
    }

    private init(
        bytes: [UInt8],
        starts: [UInt32],
        owners: [Int32],
        termNumbers: [Int32],
        firstTerm: [Int32],
        commonTerms: [CommonTerm],
        count: Int
    ) {
        self.bytes = bytes
        self.starts = starts
        self.owners = owners
        self.termNumbers = termNumbers
        self.firstTerm = firstTerm
        self.commonTerms = commonTerms
        self.count = count
    }

    /// Bytes of memory the index holds.
    public var byteCount: Int {
        bytes.capacity + 4 * (starts.capacity + owners.capacity + termNumbers.capacity + firstTerm.capacity)
            + commonTerms.reduce(0) { $0 + $1.positions.byteCount }
    }

    /// The positions, ascending, from `start` on, whose terms match every word: at most `limit` of them. No words:
    /// every position.
    public func positions(matching words: [String], from start: Int = 0, limit: Int = .max) -> [Int] {
        let start = max(start, 0)
        guard limit > 0, start < count else { return [] }
        guard !words.isEmpty else { return Array(start..<(start + min(limit, count - start))) }
        let ranges = words.map(termNumbers(prefixedBy:))
        // The rarest word's positions are the candidates. Each other word narrows them down: one whose range is
        // not much larger by a set of its own (reading its range in order is cheaper than looking up the terms of
        // scattered candidates), a far broader one ("s") by checking the terms of the candidates visited, by term
        // number: a term starts with a word exactly when its number is in the word's range.
        let byRarity = ranges.sorted { $0.count < $1.count }
        guard let driving = byRarity.first, !driving.isEmpty else { return [] }
        var candidates = positions(of: driving)
        var checks: [Range<Int>] = []
        for range in byRarity.dropFirst() {
            guard range.count <= 16 * driving.count else {
                checks.append(range)
                continue
            }
            candidates.formIntersection(positions(of: range))
        }
        var matches: [Int] = []
        candidates.forEach(from: start) { position in
            let terms = Int(firstTerm[position])..<Int(firstTerm[position + 1])
            let matchesAll = checks.allSatisfy { range in
                terms.contains { range.contains(Int(termNumbers[$0])) }
            }
            if matchesAll { matches.append(position) }
            return matches.count < limit
        }
        return matches
    }

    /// The positions of the terms numbered `range` (all the terms of a word): common terms' sets as they are,
    /// each other term's positions one by one.
    private func positions(of range: Range<Int>) -> Bitset {
        var first = 0
        var past = commonTerms.count
        while first < past {
            let middle = (first + past) / 2
            if commonTerms[middle].numbers.lowerBound < range.lowerBound { first = middle + 1 } else { past = middle }
        }
        if first < commonTerms.count, commonTerms[first].numbers == range { return commonTerms[first].positions }
        var positions = Bitset(count: count)
        var next = range.lowerBound
        while first < commonTerms.count, commonTerms[first].numbers.upperBound <= range.upperBound {
            let common = commonTerms[first]
            for number in next..<common.numbers.lowerBound { positions.insert(Int(owners[number])) }
            positions.formUnion(common.positions)
            next = common.numbers.upperBound
            first += 1
        }
        for number in next..<range.upperBound { positions.insert(Int(owners[number])) }
        return positions
    }

    /// The term numbers whose terms start with `word`: a contiguous range, since terms are sorted by bytes.
    private func termNumbers(prefixedBy word: String) -> Range<Int> {
        var prefix = Array(word.utf8)
        return prefix.withUnsafeMutableBufferPointer { prefix in
            bytes.withUnsafeBufferPointer { bytes in
                starts.withUnsafeBufferPointer { starts in
                    let prefix = UnsafeBufferPointer(prefix)
                    // First term not below the word, then the first term past every term the word prefixes.
                    let lower = partition(from: 0) { Self.compare(bytes, starts, $0, prefix, truncated: false) < 0 }
                    let upper = partition(from: lower) { Self.compare(bytes, starts, $0, prefix, truncated: true) <= 0 }
                    return lower..<upper
                }
            }
        }
    }

    /// The first term number from `low` on for which `isBefore` is false (it must be true, then false, in order).
    private func partition(from low: Int, _ isBefore: (Int) -> Bool) -> Int {
        var low = low
        var high = owners.count
        while low < high {
            let middle = (low + high) / 2
            if isBefore(middle) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Term `number` compared with `key` as bytes: negative, zero or positive. `truncated`: only the term's first
    /// `key.count` bytes take part, so every term that `key` prefixes compares equal to it.
    private static func compare(
        _ bytes: UnsafeBufferPointer<UInt8>,
        _ starts: UnsafeBufferPointer<UInt32>,
        _ number: Int,
        _ key: UnsafeBufferPointer<UInt8>,
        truncated: Bool
    ) -> Int {
        let start = Int(starts[number])
        var length = Int(starts[number + 1]) - start
        if truncated { length = min(length, key.count) }
        for offset in 0..<min(length, key.count) where bytes[start + offset] != key[offset] {
            return Int(bytes[start + offset]) - Int(key[offset])
        }
        return length - key.count
    }

    /// Two terms (by number, in their own buffers) compared as bytes.
    fileprivate static func compare(
        _ leftBytes: UnsafeBufferPointer<UInt8>,
        _ leftStarts: UnsafeBufferPointer<UInt32>,
        _ left: Int,
        _ rightBytes: UnsafeBufferPointer<UInt8>,
        _ rightStarts: UnsafeBufferPointer<UInt32>,
        _ right: Int
    ) -> Int {
        let rightStart = Int(rightStarts[right])
        let key = UnsafeBufferPointer(rebasing: rightBytes[rightStart..<Int(rightStarts[right + 1])])
        return compare(leftBytes, leftStarts, left, key, truncated: false)
    }
}

/// A fixed-size set of small integers, one bit each.
private struct Bitset: Sendable {
    private var words: [UInt64]
    private let count: Int

    init(count: Int) {
        self.count = count
        words = Array(repeating: 0, count: (count + 63) / 64)
    }

    mutating func insert(_ element: Int) {
        words[element >> 6] |= 1 << UInt64(element & 63)
    }

    mutating func formIntersection(_ other: Bitset) {
        for index in words.indices { words[index] &= other.words[index] }
    }

    mutating func formUnion(_ other: Bitset) {
        for index in words.indices { words[index] |= other.words[index] }
    }

    var byteCount: Int { words.capacity * 8 }

    /// Calls `body` with each element from `start` on, ascending, while it returns true.
    func forEach(from start: Int, _ body: (Int) -> Bool) {
        var index = start >> 6
        guard index < words.count else { return }
        var remaining = words[index] & (~0 << UInt64(start & 63))
        while true {
            while remaining != 0 {
                let element = index * 64 + remaining.trailingZeroBitCount
                guard element < count, body(element) else { return }
                remaining &= remaining - 1
            }
            index += 1
            guard index < words.count else { return }
            remaining = words[index]
        }
    }
}
