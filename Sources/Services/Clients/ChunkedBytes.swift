/// Many byte strings kept end to end in chunks of up to 1 MiB: one allocation per chunk rather than one per string,
/// and growing never copies what is already held (one array of 50 MB, doubled as it grows, would pass through 100).
/// Chunks start small and double, so a short list holds little more than its bytes.
struct ChunkedBytes: Sendable {
    private static let largestChunk = 1 << 20
    private static let smallestChunk = 4 << 10

    private var chunks: [[UInt8]] = []
    /// Where string `i` is: its chunk, its start in the chunk and its length.
    private var locations: [(chunk: UInt32, start: UInt32, length: UInt32)] = []

    var count: Int { locations.count }

    /// Bytes of memory held.
    var byteCount: Int {
        chunks.reduce(0) { $0 + $1.capacity } + locations.capacity * MemoryLayout<(UInt32, UInt32, UInt32)>.stride
    }

    mutating func append(_ bytes: some Collection<UInt8>) {
        if chunks.isEmpty || chunks[chunks.count - 1].count + bytes.count > chunks[chunks.count - 1].capacity {
            let size = min(max(Self.smallestChunk, 2 * (chunks.last?.capacity ?? 0)), Self.largestChunk)
            var chunk: [UInt8] = []
            chunk.reserveCapacity(max(size, bytes.count))
            chunks.append(chunk)
        }
        let last = chunks.count - 1
        locations.append((UInt32(last), UInt32(chunks[last].count), UInt32(bytes.count)))
        chunks[last].append(contentsOf: bytes)
    }

    /// Lets go of spare capacity: the last chunk's and the index's.
    mutating func trim() {
        if let last = chunks.popLast() { chunks.append(Self.exactCopy(last)) }
        locations = Self.exactCopy(locations)
    }

    private static func exactCopy<Element>(_ array: [Element]) -> [Element] {
        Array(unsafeUninitializedCapacity: array.count) { buffer, initialized in
            initialized = buffer.initialize(fromContentsOf: array)
        }
    }

    subscript(index: Int) -> ArraySlice<UInt8> {
        let location = locations[index]
        let start = Int(location.start)
        return chunks[Int(location.chunk)][start..<start + Int(location.length)]
    }

    /// Calls `body` with string `index`'s bytes, without copying them.
    func withBytes<T>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        let location = locations[index]
        return chunks[Int(location.chunk)].withUnsafeBufferPointer { chunk in
            body(UnsafeBufferPointer(rebasing: chunk[Int(location.start)..<Int(location.start + location.length)]))
        }
    }
}
