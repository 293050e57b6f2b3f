import NIOCore
import NIOHTTPTypes
import Synchronization

/// The server's connections, shared by all of them: how many there may be, and which are waiting for a request.
///
/// A connection that has sent no request yet, or has had its last response and sends nothing new, is waiting: it
/// costs a socket and buffers and does no work. At the cap, a new connection closes the connection that has waited
/// longest, so clients that only hold connections (slowloris, a pool of idle keep-alives) can never keep out a new
/// one: `/health` and real clients still get through. Only when every connection is busy with a request is the new
/// one turned away.
final class ConnectionLimits: Sendable {
    /// Connections held at most (open sockets, not requests per second).
    let maximum: Int
    /// How long a connection may take to send a request's head, from its opening or from its previous response's
    /// end, however it trickles in: the idle timeout alone never ends a head sent a byte at a time.
    let headDeadline: TimeAmount

    private struct Entry {
        let channel: any Channel
        /// When it began waiting for a request's head; nil while a request is being read or answered.
        var waitingSince: NIODeadline?
    }

    private let open = Mutex<[ObjectIdentifier: Entry]>([:])

    init(maximum: Int, headDeadline: TimeAmount) {
        self.maximum = maximum
        self.headDeadline = headDeadline
    }

    /// Counts the new connection in, first closing the one waiting longest when at the cap; false (and nothing
    /// counted) when every connection is busy.
    func admit(_ channel: any Channel) -> Bool {
        let evicted: (any Channel)?? = open.withLock { open in
            var evicted: (any Channel)?
            if open.count >= maximum {
                guard let (id, oldest) = open.filter({ $0.value.waitingSince != nil }).min(by: { $0.value.waitingSince! < $1.value.waitingSince! })
                else { return .none }
                open[id] = nil
                evicted = oldest.channel
            }
            open[ObjectIdentifier(channel)] = Entry(channel: channel, waitingSince: .now())
            return .some(evicted)
        }
        guard let evicted else { return false }
        evicted?.close(promise: nil)
        return true
    }

    /// Records whether the connection is waiting for a request's head (true) or busy with a request (false).
    func setWaiting(_ channel: any Channel, _ waiting: Bool) {
        open.withLock { $0[ObjectIdentifier(channel)]?.waitingSince = waiting ? .now() : nil }
    }

    func remove(_ channel: any Channel) {
        _ = open.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }
}

/// One connection's part of `ConnectionLimits`: it asks to be admitted when it opens, and closes the connection
/// when a request's head has not arrived within the deadline. Between a head and its response's end the
/// connection is busy, and the idle timeout and `BodyRateGuard` watch it instead.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let limits: ConnectionLimits
    private var deadline: Scheduled<Void>?
    private var admitted = false

    init(limits: ConnectionLimits) {
        self.limits = limits
    }

    func handlerAdded(context: ChannelHandlerContext) {
        guard limits.admit(context.channel) else {
            context.close(promise: nil)
            return
        }
        admitted = true
        waitForHead(context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            deadline?.cancel()
            deadline = nil
            limits.setWaiting(context.channel, false)
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { waitForHead(context) }
        context.write(data, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop(context)
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop(context)
    }

    private func waitForHead(_ context: ChannelHandlerContext) {
        deadline?.cancel()
        limits.setWaiting(context.channel, true)
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: limits.headDeadline) { channel.close(promise: nil) }
    }

    private func stop(_ context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        if admitted { limits.remove(context.channel) }
        admitted = false
    }
}
