import NIOCore
import NIOHTTPTypes

/// Closes a connection whose request body arrives too slowly: at least `rate.minimumBytes` in every
/// `rate.window` while a body is being read, and the whole body within `rate.deadline`.
///
/// The idle timeout alone cannot do this: a client that trickles one byte a second is never idle, and held a
/// connection (and a request's buffers) for as long as it liked. The window is generous enough for any real
/// network (1 KiB a second averaged over 10 s by default); the deadline bounds even a body sent just fast enough.
///
/// Requests reach this handler one at a time. A body's first bytes open its first window (its deadline counts
/// from the head; a body that never starts is the idle timeout's). A connection has at most one timer, set when
/// a body starts and none is set; when it fires it judges the window that is over, waits for one still open, or
/// lapses when no body is being read. Requests on a kept-alive connection so rarely schedule anything.
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
    /// Whether a request's body is being read: from its first bytes to its end.
    private var readingBody = false
    private var headArrived = NIODeadline.now()
    private var windowStarted = NIODeadline.now()
    private var receivedInWindow = 0
    private var timer: Scheduled<Void>?

    init(rate: Rate) {
        self.rate = rate
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            headArrived = .now()
        case .body(let buffer):
            if !readingBody {
                readingBody = true
                windowStarted = .now()
                receivedInWindow = 0
                if timer == nil { setTimer(context, at: windowStarted + rate.window) }
            }
            receivedInWindow += buffer.readableBytes
        case .end:
            readingBody = false
        }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
    }

    private func setTimer(_ context: ChannelHandlerContext, at due: NIODeadline) {
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(deadline: due) { bound.value.handler.timerFired(bound.value.context) }
    }

    private func timerFired(_ context: ChannelHandlerContext) {
        timer = nil
        guard readingBody else { return }
        let now = NIODeadline.now()
        let windowEnds = windowStarted + rate.window
        guard windowEnds <= now else {
            setTimer(context, at: windowEnds)
            return
        }
        if receivedInWindow < rate.minimumBytes || now - headArrived > rate.deadline {
            readingBody = false
            context.close(promise: nil)
            return
        }
        windowStarted = now
        receivedInWindow = 0
        setTimer(context, at: now + rate.window)
    }

    private func stop() {
        timer?.cancel()
        timer = nil
        readingBody = false
    }
}
