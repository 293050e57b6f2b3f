import Testing

@testable import Scoring

/// The frames between the server and its workers: what one side writes the other reads back, and a reply the
/// server cannot trust (a worker runs tenant code) is refused rather than read past its end.
@Test func requestsAndRepliesReadBackAsWritten() throws {
    let requests: [WorkerRequest] = [
        .score(
            ScriptID(exerciseId: "plank@ab12", version: 3),
            source: "return value / 6 -- ü",
            subject: ScoringSubject(sex: "female", age: 41, height: nil, mass: 61.5),
            value: nil,
            values: ["time": 48, "reps": -0.5]
        ),
        .check(source: ""),
    ]
    for request in requests {
        let frame = WorkerMessage.frame(request)
        #expect(try WorkerMessage.completeFrameLength(in: frame, from: 0) == frame.count)
        #expect(try WorkerMessage.request(frame[4...]) == request)
    }
    let replies: [WorkerReply] = [.score(7.25), .compiles, .ready, .failure(ScoringError(kind: .timeLimit, message: "too slow"))]
    for reply in replies {
        let frame = WorkerMessage.frame(reply)
        #expect(try WorkerMessage.reply(frame[4...]) == reply)
    }
}

@Test func aFrameIsCompleteOnlyOnceAllOfItArrived() throws {
    let frame = WorkerMessage.frame(.check(source: "return 1"))
    for cut in 0..<frame.count {
        #expect(try WorkerMessage.completeFrameLength(in: Array(frame[..<cut]), from: 0) == nil)
    }
    #expect(throws: WorkerMessage.DecodingError.self) {
        try WorkerMessage.completeFrameLength(in: [0xFF, 0xFF, 0xFF, 0x7F], from: 0)
    }
}

@Test func truncatedOrLyingRepliesAreRefused() {
    let failure = WorkerMessage.frame(.failure(ScoringError(kind: .runtime, message: "boom")))
    for cut in 5..<failure.count {
        #expect(throws: WorkerMessage.DecodingError.self) { try WorkerMessage.reply(failure[4..<cut]) }
    }
    // A string length far past the frame's end, an unknown kind, an unknown tag, bytes left over.
    #expect(throws: WorkerMessage.DecodingError.self) { try WorkerMessage.reply([3, 2, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F][...]) }
    #expect(throws: WorkerMessage.DecodingError.self) { try WorkerMessage.reply([3, 99, 0, 0, 0, 0, 0, 0, 0, 0][...]) }
    #expect(throws: WorkerMessage.DecodingError.self) { try WorkerMessage.reply([9][...]) }
    #expect(throws: WorkerMessage.DecodingError.self) { try WorkerMessage.reply([2, 0][...]) }
}
