import Foundation
import HealthwheelCore
import Reports
import Synchronization
import TestSupport
import Testing

@testable import Media

#if canImport(Glibc)
import Glibc
#endif

/// The media worker processes as the server uses them: real workers (`healthwheel media-worker`), real files.
@Suite struct MediaWorkersTests {
    static let company = UUID()

    /// A photo whose decoding takes far longer than a millisecond on any machine: 12 megapixels.
    static let largePhoto = TestPictures.blackPNG(width: 4000, height: 3000)

    @Test func aPhotoIsMeasuredCleanedAndDecodedIntoItsPreviews() async throws {
        let workers = MediaWorkers(executable: HealthwheelExecutable.url.path, workers: 1)
        defer { workers.shutdown() }
        let photo = TestPictures.jpeg(exif: TestPictures.exif(orientation: 6, gps: true))
        let prepared = try await workers.preparePhoto(format: .jpeg, company: Self.company) { photo }
        let original = try PictureHeader.read(photo)
        #expect((prepared.width, prepared.height) == (original.height, original.width), "turned a quarter by its orientation")
        #expect(!prepared.stored.contains(TestPictures.gpsMarker), "no GPS block in what is stored")
        #expect(try PictureHeader.read(prepared.largePreview).format == .jpeg)
        #expect(try PictureHeader.read(prepared.smallPreview).format == .jpeg)
    }

    @Test func aFileThatDoesNotDecodeIsRefusedWithTheDecodersWords() async throws {
        let workers = MediaWorkers(executable: HealthwheelExecutable.url.path, workers: 1)
        defer { workers.shutdown() }
        await #expect(throws: MediaFailure.refused("is a PNG that ends inside its header (IHDR)")) {
            try await workers.pictureHeader(TestPictures.pngSignature, limit: .clientPhoto, company: Self.company)
        }
        let broken: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x41, count: 100)
        let failure = await #expect(throws: MediaFailure.self) { try await workers.photoThumbnail(broken, fitting: 32, company: Self.company) }
        #expect(failure?.reason.hasPrefix("does not decode") == true, "\(String(describing: failure))")
        // The worker that refused them is the one that answers next.
        #expect(workers.counters == .init(started: 1, killedForTime: 0, lost: 0))
    }

    @Test func aFilePastTheDeadlineIsStoppedAndItsWorkerReplaced() async throws {
        let workers = MediaWorkers(executable: HealthwheelExecutable.url.path, workers: 1, deadline: .milliseconds(1))
        defer { workers.shutdown() }
        await #expect(throws: MediaFailure.timedOut(.milliseconds(1))) {
            try await workers.photoThumbnail(Self.largePhoto, fitting: 256, company: Self.company)
        }
        #expect(workers.counters.killedForTime == 1)
        while workers.counters.started < 2 { await Task.yield() }  // a replacement, started once the file is answered
    }

    @Test func aWorkerThatEndsOnAFileFailsThatFileOnly() async throws {
        let workers = MediaWorkers(executable: HealthwheelExecutable.url.path, workers: 1)
        defer { workers.shutdown() }
        // A request the worker cannot read makes it exit at once, as a trap in a reader would end it.
        let failure = await #expect(throws: MediaFailure.self) { try await workers.send([1, 0, 0, 0, 99], tenant: "a") }
        #expect(failure == .workerEnded("exit status 2"))
        #expect(failure?.reason.contains("the decoder stopped on it") == true)
        let header = try await workers.pictureHeader(TestPictures.blackPNG(width: 8, height: 4), limit: .clientPhoto, company: Self.company)
        #expect(header == PictureHeader(format: .png, width: 8, height: 4), "the next file gets a new worker")
        #expect(workers.counters.lost == 1)
    }

    @Test func aWorkerKilledFromOutsideWhileIdleIsReplacedBeforeTheNextFile() async throws {
        let workers = MediaWorkers(executable: HealthwheelExecutable.url.path, workers: 1)
        defer { workers.shutdown() }
        _ = try await workers.pictureHeader(TestPictures.blackPNG(width: 8, height: 4), limit: .clientPhoto, company: Self.company)
        let pid = try #require(workers.processIDs.first)
        #expect(kill(pid, SIGSEGV) == 0)
        // Reaped by nobody until the pool looks: wait until every thread of it has ended (its socket is closed
        // once the last one has), which leaves its first thread a zombie.
        func ended() -> Bool {
            let state = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
            let threads = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
            return state?.contains(") Z ") == true && threads?.count == 1
        }
        while !ended() { await Task.yield() }
        _ = try await workers.pictureHeader(TestPictures.blackPNG(width: 8, height: 4), limit: .clientPhoto, company: Self.company)
        #expect(workers.counters.lost == 1 && workers.counters.started == 2)
    }

    /// What the kernel says of a running worker: filtered, and its limits as `WorkerConfinement.media` sets them.
    @Test func aWorkerRunsConfined() async throws {
        let workers = MediaWorkers(executable: HealthwheelExecutable.url.path, workers: 1)
        defer { workers.shutdown() }
        _ = try await workers.pictureHeader(TestPictures.blackPNG(width: 8, height: 4), limit: .clientPhoto, company: Self.company)
        let pid = try #require(workers.processIDs.first)
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        #expect(status.contains("Seccomp:\t2"), "a seccomp filter is on")
        #expect(status.contains("NoNewPrivs:\t1"))
        let limits = try String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)
        let line = { (name: String) in limits.split(separator: "\n").first { $0.hasPrefix(name) }.map(String.init) ?? "" }
        #expect(line("Max open files").split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).first == "3")
        #expect(line("Max file size").split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).first == "0")
        #expect(line("Max cpu time").contains("120"))
        #expect(!line("Max address space").contains("unlimited"))
        let environment = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/environ"))
        #expect(environment.isEmpty, "no key or secret of the server's")
    }

    /// A video crosses to its worker a piece at a time, and only the pieces its header needs: its `mdat` (3 MiB)
    /// is passed over, its `moov` after it read whole.
    @Test func aVideoIsReadOnlyWhereItsHeaderIs() async throws {
        let workers = MediaWorkers(executable: HealthwheelExecutable.url.path, workers: 1)
        defer { workers.shutdown() }
        let movie = TestMedia.movie(turned: true, moovFirst: true)  // ftyp, moov, then 5,008 bytes of mdat
        let moov = Array(movie[TestMedia.ftyp("qt  ").count..<(movie.count - 5_008)])
        let mdat: [UInt8] = TestMedia.box("mdat", [UInt8](repeating: 7, count: 3 << 20))
        let video: [UInt8] = TestMedia.ftyp("qt  ") + mdat + moov
        let ranges = Mutex<[Range<Int>]>([])
        let header = try await workers.videoHeader(length: video.count, company: Self.company) { range in
            ranges.withLock { $0.append(range) }
            return Array(video[range])
        }
        #expect(header == VideoHeader(durationSeconds: 5, width: 1080, height: 1920))
        let read = ranges.withLock { $0 }
        #expect(read.allSatisfy { $0.count <= MediaWorkers.videoPiece })
        #expect(read.count == 2, "the first piece, then from the moov on: \(read)")
        #expect(read.last?.lowerBound == video.count - moov.count)
    }

    /// 800,008 boxes of 8 bytes: refused once the worker has seen `VideoHeaderScanner.maximumBoxes` of them, and
    /// the rest of the file is never read.
    @Test func aVideoOfTooManyBoxesIsRefusedWithoutReadingItAll() async throws {
        let workers = MediaWorkers(executable: HealthwheelExecutable.url.path, workers: 1)
        defer { workers.shutdown() }
        let video = TestMedia.ftyp("isom")
        let boxes = TestMedia.box("free", [])
        let length = video.count + boxes.count * 800_000
        let read = Mutex(0)
        let failure = await #expect(throws: MediaFailure.self) {
            try await workers.videoHeader(length: length, company: Self.company) { range in
                read.withLock { $0 += range.count }
                return range.map { $0 < video.count ? video[$0] : boxes[($0 - video.count) % boxes.count] }
            }
        }
        #expect(failure?.reason.contains("top-level boxes") == true, "\(String(describing: failure))")
        #expect(read.withLock { $0 } < length / 4)
    }

    @Test func aLogoIsNormalisedAndSentBackAsPixels() async throws {
        let workers = MediaWorkers(executable: HealthwheelExecutable.url.path, workers: 1)
        defer { workers.shutdown() }
        let logo = try await workers.logo(TestPictures.blackPNG(width: 1024, height: 256), normalised: false, company: nil)
        #expect((logo.width, logo.height) == (512, 128))
        #expect(logo == (try ReportLogo(normalising: TestPictures.blackPNG(width: 1024, height: 256), limit: .logo)), "as the server made it")
        #expect(logo.bitmap.pixels.count == logo.bitmap.stride * logo.bitmap.height)
    }
}
