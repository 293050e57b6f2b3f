import Foundation
import HealthwheelCore
import Reports
import Synchronization
import Workers

#if canImport(Glibc)
import Glibc
#endif

/// Reads and decodes tenants' pictures and videos out of the server's process: a small pool of confined media worker
/// processes (`MediaWorker`, `WorkerConfinement.media`), each driven by a thread of its own that sends it one
/// file at a time.
///
/// - Every request has a wall-clock deadline (`deadline`): a worker still busy past it is killed and replaced,
///   and the request fails with `MediaFailure.timedOut`. A worker that dies on a file (a trap in a reader, a
///   fault in a C decoder) fails only that request (`workerEnded`) and is replaced.
/// - Requests wait in one line per company (`FairQueue`), taken in turn, and one company has at most all
///   workers but one running its files: another company's request waits for one file at most.
/// - Callers wait asynchronously; nothing of this runs on Swift's cooperative threads.
public final class MediaWorkers: Sendable {
    /// How long one file may hold its worker.
    public let deadline: Duration
    private let queue: FairQueue<Job>
    fileprivate let record: WorkerPoolRecord

    /// A worker is retired (and replaced) once its requests took this long in all: well before its CPU-time limit.
    static let retireAfter: Duration = .seconds(60)

    /// - Parameters:
    ///   - executable: a program that runs `MediaWorker.run` when its first argument is `media-worker`: the
    ///     server itself (`/proc/self/exe`).
    ///   - workers: processes (and threads) in the pool; by default one per core and one more, so that a company
    ///     may keep every core busy with its files and a worker is still free for any other company.
    ///   - deadline: how long one file may take: several times what the largest photo accepted (48 megapixels)
    ///     takes to decode into its previews.
    ///   - report: told, in a sentence, when a worker is killed, lost or cannot start (the server logs it).
    public init(
        executable: String = "/proc/self/exe",
        workers: Int = ProcessInfo.processInfo.activeProcessorCount + 1,
        deadline: Duration = .seconds(10),
        report: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        let count = max(1, workers)
        self.deadline = deadline
        // One file at a time; files are never "slow" in the scoring sense (no rests): each company simply holds at
        // most all workers but one.
        queue = FairQueue(workers: count, slowCall: .seconds(86_400), batchTime: .zero, batchSize: 1, runningPerLine: count - 1)
        record = WorkerPoolRecord(workers: count)
        for index in 0..<count {
            let driver = MediaWorkerDriver(index: index, executable: executable, pool: self, report: report)
            let thread = Thread { driver.run() }
            thread.name = "media-worker-\(index)"
            thread.start()
        }
    }

    // MARK: - What a worker does

    /// An uploaded result photo, checked and prepared for storing (see `PreparedPhoto`). `read` gives its bytes
    /// when a worker is free for it (on the pool's thread, so it may block): no more photos are in memory at once
    /// than there are workers, however many uploads end together.
    public func preparePhoto(
        format: MediaFormat,
        company: UUID,
        read: @escaping @Sendable () throws -> [UInt8]
    ) async throws(MediaFailure) -> PreparedPhoto {
        let reply = try await enqueue(tenant: company.uuidString) { previous in
            guard previous == nil else { return nil }
            return MediaMessage.frame(.preparePhoto(format, try read(), previewSizes: PreparedPhoto.previewSizes))
        }
        guard case .preparedPhoto(let prepared) = reply else { throw .unexpectedReply }
        return prepared
    }

    /// A JPEG (or PNG) fitting `size` × `size` of a stored photo (`MediaThumbnail.photo`).
    public func photoThumbnail(_ photo: [UInt8], fitting size: Int, png: Bool = false, company: UUID) async throws(MediaFailure) -> [UInt8] {
        try await picture(.photoThumbnail(photo, size: size, png: png), company)
    }

    /// The same from a photo's stored preview (`MediaThumbnail.preview`).
    public func previewThumbnail(_ preview: [UInt8], fitting size: Int, png: Bool = false, company: UUID) async throws(MediaFailure) -> [UInt8] {
        try await picture(.previewThumbnail(preview, size: size, png: png), company)
    }

    /// A photo's report picture (`ReportMedia`), drawn from its small preview.
    public func reportPicture(id: UUID, preview: [UInt8], caption: String?, company: UUID) async throws(MediaFailure) -> ReportMedia {
        guard case .reportPicture(let png, let bitmap) = try await call(.reportPicture(preview), company) else {
            throw .unexpectedReply
        }
        return ReportMedia(id: id, kind: .photo, png: png, bitmap: bitmap, caption: caption)
    }

    /// A logo as reports show it: from the upload (`normalised` false) or from its stored normalised copy.
    /// `company` is nil for a shipped theme's.
    public func logo(_ bytes: [UInt8], normalised: Bool, company: UUID?) async throws(MediaFailure) -> ReportLogo {
        guard case .logo(let png, let width, let height, let bitmap) = try await call(.logo(bytes, normalised: normalised), company) else {
            throw .unexpectedReply
        }
        return ReportLogo(png: png, width: width, height: height, bitmap: bitmap)
    }

    /// A picture's header measured against `limit` (a client's photo, one in a vCard).
    public func pictureHeader(_ bytes: [UInt8], limit: PictureLimit, company: UUID) async throws(MediaFailure) -> PictureHeader {
        guard case .header(let header) = try await call(.pictureHeader(bytes, limit), company) else {
            throw .unexpectedReply
        }
        return header
    }

    /// An uploaded video's header, its boxes followed in a worker (`VideoHeaderScanner`) as `read` gives its
    /// `length` bytes, at most `videoPiece` at a time (called on the pool's thread, so it may block); nil when it
    /// has none. The worker says which bytes it can pass over (a `mdat`'s), so what is read is the box headers and
    /// the `moov`, not the video. A video of too many boxes is refused as soon as its worker has seen them.
    public func videoHeader(
        length: Int,
        company: UUID,
        read: @escaping @Sendable (Range<Int>) throws -> [UInt8]
    ) async throws(MediaFailure) -> VideoHeader? {
        // Where the last piece ended; only the pool's thread moves it, one piece at a time.
        let position = Mutex(0)
        let reply = try await enqueue(tenant: company.uuidString) { previous in
            var start = position.withLock { $0 }
            if case .more(let skip)? = previous { start += min(skip, length - start) }
            let end = min(length, start + Self.videoPiece)
            position.withLock { $0 = end }
            let bytes = start < end ? try read(start..<end) : []
            return MediaMessage.frame(.videoBytes(bytes, first: previous == nil, last: end == length))
        }
        guard case .video(let header) = reply else { throw .unexpectedReply }
        return header
    }

    /// A video goes to its worker 1 MiB at a time: the server holds no more of it, and neither does the worker.
    static let videoPiece = 1 << 20

    // MARK: - The pool

    /// The worker processes now (0 where one is being replaced), for tests that signal one from outside.
    public var processIDs: [pid_t] { record.processIDs }

    /// What the pool has done since it started; tests check it.
    public var counters: WorkerPoolRecord.Counters { record.counters }

    /// Stops the threads and their workers once the requests already queued are answered.
    public func shutdown() {
        queue.close()
    }

    private func picture(_ request: MediaRequest, _ company: UUID) async throws(MediaFailure) -> [UInt8] {
        guard case .picture(let bytes) = try await call(request, company) else { throw .unexpectedReply }
        return bytes
    }

    private func call(_ request: MediaRequest, _ company: UUID?) async throws(MediaFailure) -> MediaReply {
        try await send(MediaMessage.frame(request), tenant: company?.uuidString ?? "")
    }

    /// Sends one request frame as it is (tests send malformed ones) and waits for the reply.
    func send(_ frame: [UInt8], tenant: String) async throws(MediaFailure) -> MediaReply {
        guard frame.count - 4 <= MediaMessage.maximumFrameBytes else { throw .refused("is too large to read") }
        return try await enqueue(tenant: tenant) { $0 == nil ? frame : nil }
    }

    /// Queues a request of one or more frames and waits for its final reply: `frames(nil)` is its first frame,
    /// `frames(reply)` the next after a `more` reply, nil when there is none.
    private func enqueue(
        tenant: String,
        frames: @escaping @Sendable (_ after: MediaReply?) throws -> [UInt8]?
    ) async throws(MediaFailure) -> MediaReply {
        let result = await withCheckedContinuation { continuation in
            queue.append(Job(tenant: tenant, frames: frames, continuation: continuation), tenant: tenant)
        }
        switch result {
        case .success(.refused(let reason)): throw .refused(reason)
        case .success(let reply): return reply
        case .failure(let failure): throw failure
        }
    }

    fileprivate func take() -> Job? { queue.take()?.first?.job }
    fileprivate func answer(_ job: Job, _ result: Result<MediaReply, MediaFailure>, ran: Duration) {
        queue.finished(tenant: job.tenant, ran: ran)
        job.continuation.resume(returning: result)
    }
}

/// Why a file could not be read or decoded in a media worker. `reason` completes a sentence about the file.
public enum MediaFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file is malformed, too large, or does not decode: the reader's or decoder's words.
    case refused(String)
    /// It held its worker past the deadline; the worker was killed.
    case timedOut(Duration)
    /// Its worker ended while reading it (how: "killed by signal 11").
    case workerEnded(String)
    /// No worker could be started.
    case unavailable
    /// The server could not read the file back from its storage to send it (the reason).
    case unreadable(String)

    /// A reply of another kind than the request asks for: the worker is not to be trusted with more.
    static let unexpectedReply = MediaFailure.workerEnded("it answered with something else")

    /// A reason is cut to this many characters on the worker's side.
    static let maximumReasonLength = 300

    /// "is not a PNG image", "took longer than 10 s to read and decode", ….
    public var reason: String {
        switch self {
        case .refused(let reason): reason
        case .timedOut(let limit): "took longer than \(limit.seconds.formatted()) s to read and decode, and was stopped"
        case .workerEnded(let how): "could not be read or decoded: the decoder stopped on it (\(how))"
        case .unavailable: "could not be read: no media worker is running"
        case .unreadable(let why): "could not be read back from storage: \(why)"
        }
    }

    public var description: String { "the file \(reason)" }
}

/// One queued request: its frames (made on the pool's thread, one at a time), whose line it waits in, and the
/// caller waiting for the reply.
private final class Job: Sendable {
    let tenant: String
    /// The request's first frame (given nil), or the next after a `more` reply (given it); nil when there is none.
    let frames: @Sendable (_ after: MediaReply?) throws -> [UInt8]?
    let continuation: CheckedContinuation<Result<MediaReply, MediaFailure>, Never>

    init(
        tenant: String,
        frames: @escaping @Sendable (_ after: MediaReply?) throws -> [UInt8]?,
        continuation: CheckedContinuation<Result<MediaReply, MediaFailure>, Never>
    ) {
        self.tenant = tenant
        self.frames = frames
        self.continuation = continuation
    }
}

/// The loop of one pool thread: keeps one worker process (`WorkerSlot`), sends it one request at a time, and kills
/// and replaces it when a request passes its deadline.
private final class MediaWorkerDriver: @unchecked Sendable {
    /// Held strongly: the pool lives until `shutdown` ends its threads.
    private let pool: MediaWorkers
    private let slot: WorkerSlot

    init(index: Int, executable: String, pool: MediaWorkers, report: @escaping @Sendable (String) -> Void) {
        self.pool = pool
        slot = WorkerSlot(
            kind: "media worker",
            index: index,
            executable: executable,
            arguments: [MediaWorker.command],
            ready: MediaMessage.frame(.ready),
            record: pool.record,
            retireAfter: MediaWorkers.retireAfter,
            report: report
        )
    }

    func run() {
        _ = slot.worker()
        while let job = pool.take() {
            serve(job)
        }
        slot.close()
    }

    private func serve(_ job: Job) {
        guard let process = slot.worker() else {
            return pool.answer(job, .failure(.unavailable), ran: .zero)
        }
        let started = ContinuousClock.now
        var ran: Duration { ContinuousClock.now - started }
        defer { slot.worked(ran) }

        /// Ends the worker, fails the request with `failure(how it ended)`, and starts a replacement.
        func replaceWorker(_ why: String, _ failure: (_ how: String) -> MediaFailure) {
            let how = slot.end(why)
            pool.answer(job, .failure(failure(how)), ran: ran)
            _ = slot.worker()
        }

        /// Answers a request whose exchange did not end in a reply, and replaces its worker.
        func failed(_ exchange: WorkerProcess.Exchange) {
            switch exchange {
            case .timedOut:
                pool.record.count(.killedForTime)
                replaceWorker("was killed: a file ran past its deadline") { _ in .timedOut(pool.deadline) }
            case .ended:
                pool.record.count(.lost)
                replaceWorker("stopped while reading a file") { .workerEnded($0) }
            case .malformed, .reply:
                pool.record.count(.lost)
                replaceWorker("sent a malformed reply") { _ in .workerEnded("it sent a malformed reply") }
            }
        }

        var previous: MediaReply?
        while true {
            let frame: [UInt8]?
            do {
                frame = try job.frames(previous)
            } catch {
                // The worker keeps the pieces it had; the next request's first piece starts it afresh.
                return pool.answer(job, .failure(.unreadable("\(error)")), ran: ran)
            }
            guard let frame else {
                pool.record.count(.lost)
                return replaceWorker("asked for more than the file holds") { _ in .workerEnded("it asked for more than the file holds") }
            }
            let exchange = process.exchange(frame, until: started + pool.deadline, maximumReplyBytes: MediaMessage.maximumFrameBytes)
            guard case .reply(let payload) = exchange, let reply = try? MediaMessage.reply(payload[...]) else { return failed(exchange) }
            guard case .more = reply else { return pool.answer(job, .success(reply), ran: ran) }
            previous = reply
        }
    }
}
