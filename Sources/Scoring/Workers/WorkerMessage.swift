import Workers

/// What the server asks a scoring worker: score one call, or compile a source without running it.
enum WorkerRequest: Equatable {
    case score(ScriptID, source: String, subject: ScoringSubject, value: Double?, values: [String: Double])
    case check(source: String)

    /// The bytes of the script's source the request carries.
    var sourceLength: Int {
        switch self {
        case .score(_, let source, _, _, _), .check(let source): source.utf8.count
        }
    }
}

/// A worker's answer to one request, in the order the requests were sent.
enum WorkerReply: Equatable {
    case score(Double)
    /// The source compiles.
    case compiles
    case failure(ScoringError)
    /// The first frame a worker sends, once confined: calls are timed from then on, not from its start-up.
    case ready
}

/// A scoring worker's frames (`WorkerFrame`): the server reads a reply as untrusted (a worker runs tenant code),
/// and a frame past `maximumFrameBytes` ends the worker.
enum WorkerMessage {
    /// Sources are at most a few hundred KiB (pack files are bounded long before); replies a few hundred bytes.
    static let maximumFrameBytes = 8 << 20

    typealias DecodingError = WorkerFrameError

    static func completeFrameLength(in buffer: [UInt8], from start: Int) throws(DecodingError) -> Int? {
        try WorkerFrame.completeLength(in: buffer, from: start, maximum: maximumFrameBytes)
    }

    static func frame(_ request: WorkerRequest) -> [UInt8] {
        var writer = FrameWriter(capacity: request.sourceLength + 256)
        switch request {
        case .score(let script, let source, let subject, let value, let values):
            writer.byte(1)
            writer.string(script.exerciseId)
            writer.integer(Int64(script.version))
            writer.string(source)
            writer.string(subject.sex)
            writer.integer(Int64(subject.age))
            writer.number(subject.height)
            writer.number(subject.mass)
            writer.number(value)
            writer.integer(Int64(values.count))
            for (key, number) in values {
                writer.string(key)
                writer.number(number)
            }
        case .check(let source):
            writer.byte(2)
            writer.string(source)
        }
        return writer.finished()
    }

    static func frame(_ reply: WorkerReply) -> [UInt8] {
        var writer = FrameWriter()
        switch reply {
        case .score(let number):
            writer.byte(1)
            writer.number(number)
        case .compiles:
            writer.byte(2)
        case .failure(let error):
            writer.byte(3)
            writer.byte(error.kind.code)
            writer.string(error.message)
        case .ready:
            writer.byte(4)
        }
        return writer.finished()
    }

    static func request(_ payload: ArraySlice<UInt8>) throws(DecodingError) -> WorkerRequest {
        var reader = FrameReader(payload)
        let request: WorkerRequest
        switch try reader.byte() {
        case 1:
            let script = ScriptID(exerciseId: try reader.string(), version: Int(try reader.integer()))
            let source = try reader.string()
            let sex = try reader.string()
            let age = Int(try reader.integer())
            let subject = ScoringSubject(sex: sex, age: age, height: try reader.number(), mass: try reader.number())
            let value = try reader.number()
            let count = try reader.integer()
            guard count >= 0, count <= reader.remaining / 13 else { throw .malformed }  // each pair takes at least 13 bytes
            var values: [String: Double] = [:]
            for _ in 0..<count {
                let key = try reader.string()
                guard let number = try reader.number() else { throw .malformed }
                values[key] = number
            }
            request = .score(script, source: source, subject: subject, value: value, values: values)
        case 2:
            request = .check(source: try reader.string())
        default:
            throw .malformed
        }
        guard reader.remaining == 0 else { throw .malformed }
        return request
    }

    static func reply(_ payload: ArraySlice<UInt8>) throws(DecodingError) -> WorkerReply {
        var reader = FrameReader(payload)
        let reply: WorkerReply
        switch try reader.byte() {
        case 1:
            guard let number = try reader.number() else { throw .malformed }
            reply = .score(number)
        case 2:
            reply = .compiles
        case 3:
            guard let kind = ScoringError.Kind(code: try reader.byte()) else { throw .malformed }
            let message = try reader.string()
            guard message.utf8.count <= ScoringError.maximumMessageLength * 4 + 8 else { throw .malformed }
            reply = .failure(ScoringError(kind: kind, message: message))
        case 4:
            reply = .ready
        default:
            throw .malformed
        }
        guard reader.remaining == 0 else { throw .malformed }
        return reply
    }
}

extension ScoringError.Kind {
    /// The kind's number on a worker's socket.
    var code: UInt8 {
        switch self {
        case .compile: 1
        case .runtime: 2
        case .invalidResult: 3
        case .instructionBudget: 4
        case .timeLimit: 5
        case .memoryLimit: 6
        case .unavailable: 7
        case .workerStopped: 8
        }
    }

    init?(code: UInt8) {
        let all: [Self] = [.compile, .runtime, .invalidResult, .instructionBudget, .timeLimit, .memoryLimit, .unavailable, .workerStopped]
        guard let kind = all.first(where: { $0.code == code }) else { return nil }
        self = kind
    }
}
