/// What a video's `moov` box says: how long it runs and its picture's size as shown (a phone's portrait video is
/// stored landscape with a quarter turn in its track matrix; the size given here is turned with it).
public struct VideoHeader: Sendable, Equatable {
    public var durationSeconds: Double
    public var width: Int?
    public var height: Int?

    /// The longest running time a header may state: a week, far past any upload's size limit.
    public static let longestSeconds: Double = 7 * 86_400

    /// The header in a `moov` box's payload, or nil when it holds no movie header (`mvhd`).
    public static func read(moov payload: Range<Int>, in bytes: [UInt8]) -> VideoHeader? {
        let boxes = ISOBoxes.children(of: payload, in: bytes)
        guard let mvhd = boxes.first(where: { $0.type == "mvhd" }) else { return nil }
        var reader = ISOReader(bytes: bytes, range: mvhd.payload)
        guard let version = reader.read(1), reader.skip(3) else { return nil }
        let wide = version == 1 ? 8 : 4
        guard reader.skip(2 * wide), let timescale = reader.read(4), let duration = reader.read(wide), timescale > 0 else { return nil }
        // A 64-bit duration can say anything (negative, once read into an Int, or longer than the age of the
        // universe): a running time past `longestSeconds` is a broken or hostile header, not a video's.
        let seconds = Double(duration) / Double(timescale)
        guard seconds >= 0, seconds <= longestSeconds else { return nil }
        var header = VideoHeader(durationSeconds: seconds)
        for trak in boxes where trak.type == "trak" {
            guard let tkhd = ISOBoxes.children(of: trak.payload, in: bytes).first(where: { $0.type == "tkhd" }),
                let size = trackSize(tkhd.payload, bytes)
            else { continue }
            (header.width, header.height) = size
            break
        }
        return header
    }

    public init(durationSeconds: Double, width: Int? = nil, height: Int? = nil) {
        self.durationSeconds = durationSeconds
        self.width = width
        self.height = height
    }

    /// A visual track's width and height (16.16 fixed point), turned when its matrix turns it a quarter.
    private static func trackSize(_ payload: Range<Int>, _ bytes: [UInt8]) -> (Int, Int)? {
        var reader = ISOReader(bytes: bytes, range: payload)
        guard let version = reader.read(1), reader.skip(3) else { return nil }
        let wide = version == 1 ? 8 : 4
        // Times and ids, reserved, layer, group, volume, reserved, then the matrix: a b u / c d v / x y w.
        guard reader.skip(3 * wide + 8 + 8 + 8), let a = reader.read(4), reader.skip(12), let d = reader.read(4), reader.skip(16),
            let width = reader.read(4), let height = reader.read(4)
        else { return nil }
        let (w, h) = (width >> 16, height >> 16)
        guard w > 0, h > 0 else { return nil }
        return a == 0 && d == 0 ? (h, w) : (w, h)
    }
}

/// Follows a video's top-level boxes as its bytes stream past and keeps only its `moov` box (at most 16 MiB), so
/// that the header is known when the upload ends without reading the file again, whether `moov` comes first (a
/// "fast start" file) or last (as phones record).
///
/// Linear in the bytes, and bounded in the boxes it will follow (`maximumBoxes`): a file made of 8-byte boxes is
/// refused once it passes the count, instead of being walked box by box to its end.
public struct VideoHeaderScanner: Sendable {
    public static let maximumMoovBytes = 16 << 20
    /// Top-level boxes in one file. A phone's video has four or five (ftyp, wide, mdat, moov); a fragmented one
    /// two a fragment (moof, mdat), tens of thousands at most for a video that fits in an upload.
    public static let maximumBoxes = 100_000

    /// Why the file is refused, worded to follow a field name, once it passes `maximumBoxes`; nil while it has not.
    public private(set) var problem: String?
    private var boxes = 0

    /// Bytes of the box header being read, until it is complete.
    private var pendingHeader: [UInt8] = []
    /// Bytes left in the current box after its header.
    private var remaining = 0
    /// The `moov` box being kept (its payload), while `remaining` counts it down.
    private var moov: [UInt8]?
    private var keptMoov: [UInt8]?
    /// Set when the boxes stop making sense (a size smaller than its header): nothing more is read.
    private var broken = false

    public init() {}

    public mutating func consume(_ chunk: some Collection<UInt8>) {
        var rest = chunk[...]
        while !rest.isEmpty, !broken {
            if remaining > 0 {
                let take = min(remaining, rest.count)
                let end = rest.index(rest.startIndex, offsetBy: take)
                moov?.append(contentsOf: rest[rest.startIndex..<end])
                rest = rest[end...]
                remaining -= take
                if remaining == 0, let box = moov {
                    keptMoov = box
                    moov = nil
                }
                continue
            }
            pendingHeader.append(rest.removeFirst())
            guard pendingHeader.count >= 8 else { continue }
            let size32 = readBigEndian(pendingHeader, 0, 4)
            if size32 == 1, pendingHeader.count < 16 { continue }
            let (size, header) = size32 == 1 ? (readBigEndian(pendingHeader, 8, 8), 16) : (size32, 8)
            let isMoov = pendingHeader[4..<8].elementsEqual("moov".utf8)
            pendingHeader.removeAll(keepingCapacity: true)
            boxes += 1
            if boxes > Self.maximumBoxes {
                problem = "is a video of over \(Self.maximumBoxes) top-level boxes; at most \(Self.maximumBoxes) are accepted"
                broken = true
                break
            }
            if size == 0 {  // to the end of the file: only `mdat` does this, and nothing follows it
                remaining = Int.max
                continue
            }
            guard size >= header else {
                broken = true
                break
            }
            remaining = size - header
            if isMoov, keptMoov == nil, remaining <= Self.maximumMoovBytes { moov = [] }
            if remaining == 0, moov != nil {
                keptMoov = moov
                moov = nil
            }
        }
    }

    /// Whether nothing more will be read: the file passed its limits, or a box runs to its end (nothing follows).
    public var isFinished: Bool { broken || remaining == Int.max }

    /// Passes over the rest of the box being read when it is not kept (a `mdat` of gigabytes), and says how many
    /// bytes that is: the next bytes to `consume` are those that far past the ones consumed so far. A reader that
    /// can seek reads a video's box headers and its `moov`, not its pictures.
    public mutating func skipPayload() -> Int {
        guard moov == nil, remaining > 0, !isFinished else { return 0 }
        defer { remaining = 0 }
        return remaining
    }

    /// The header, once a whole `moov` box has passed.
    public var header: VideoHeader? {
        keptMoov.flatMap { VideoHeader.read(moov: 0..<$0.count, in: $0) }
    }
}
