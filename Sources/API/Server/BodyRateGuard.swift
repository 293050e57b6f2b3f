import NIOCore
import NIOHTTPTypes

/// Closes a connection whose request body arrives too slowly: at least `rate.minimumBytes` in every
/// `rate.window` while a body is being read, and the whole body within `rate.deadline`.
///
/// The idle timeout alone cannot do this: a client that trickles one byte a second is never idle, and held a
/// connection (and a request's buffers) for as long as it liked. The window is generous enough for any real
/// network (1 KiB a second averaged over 10 s by default); the deadline bounds even a body sent just fast enough.
/// Requests reach this handler one at a time, and one without a body ends its watch at once.
final class BodyRateGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    /// How fast a request body must arrive.
    struct Rate: Sendable {
        /// The length of one measuring window.
        var window: TimeAmount = .seconds(10)
        /// The bytes each window must bring while the body is incomplete.
        var minimumBytes = 10 * 1024
        /// The longest a body may take in all, however steadily it comes.
        var deadline: TimeAmount = .hours(1)
    }

    private let rate: Rate
    private var receivedInWindow = 0
    private var started = NIODeadline.now()
    private var watch: RepeatedTask?

    init(rate: Rate) {
        self.rate = rate
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: startWatching(context)
        case .body(let buffer): receivedInWindow += buffer.readableBytes
        case .end: stopWatching()
        }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        stopWatching()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stopWatching()
    }

    private func startWatching(_ context: ChannelHandlerContext) {
        stopWatching()
        receivedInWindow = 0
        started = .now()
        let loop = context.eventLoop
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: loop)
        watch = loop.scheduleRepeatedTask(initialDelay: rate.window, delay: rate.window) { _ in
            bound.value.handler.check(bound.value.context)
        }
    }

    private func check(_ context: ChannelHandlerContext) {
        let tooSlow = receivedInWindow < rate.minimumBytes || .now() - started > rate.deadline
        receivedInWindow = 0
        guard tooSlow else { return }
        stopWatching()
        context.close(promise: nil)
    }

    private func stopWatching() {
        watch?.cancel()
        watch = nil
    }
}
