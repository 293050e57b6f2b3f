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

    /// One admitted connection. Its guard marks it waiting or busy on every request without taking the shared
    /// lock, which is only held to admit, evict and remove connections.
    final class Connection: Sendable {
        let channel: any Channel
        /// The uptime in nanoseconds at which it began waiting for a request's head; `busy` while a request is
        /// being read or answered.
        private let waitingSinceNanoseconds: Atomic<UInt64>
        private static let busy = UInt64.max

        init(channel: any Channel, waitingSince: NIODeadline) {
            self.channel = channel
            self.waitingSinceNanoseconds = Atomic(waitingSince.uptimeNanoseconds)
        }

        /// When it began waiting for a request's head, or nil while it is busy with one.
        var waitingSince: NIODeadline? {
            let nanoseconds = waitingSinceNanoseconds.load(ordering: .relaxed)
            return nanoseconds == Self.busy ? nil : .uptimeNanoseconds(nanoseconds)
        }

        func markWaiting(since start: NIODeadline) {
            waitingSinceNanoseconds.store(start.uptimeNanoseconds, ordering: .relaxed)
        }

        func markBusy() {
            waitingSinceNanoseconds.store(Self.busy, ordering: .relaxed)
        }
    }

    private let open = Mutex<[ObjectIdentifier: Connection]>([:])

    init(maximum: Int, headDeadline: TimeAmount) {
        self.maximum = maximum
        self.headDeadline = headDeadline
    }

    /// Counts the new connection in (waiting for its first request), first closing the one waiting longest when
    /// at the cap; nil (and nothing counted) when every connection is busy.
    func admit(_ channel: any Channel) -> Connection? {
        let connection = Connection(channel: channel, waitingSince: .now())
        let evicted: (any Channel)?? = open.withLock { open in
            var evicted: (any Channel)?
            if open.count >= maximum {
                let waiting = open.compactMap { id, entry in entry.waitingSince.map { (id: id, channel: entry.channel, since: $0) } }
                guard let oldest = waiting.min(by: { $0.since < $1.since }) else { return .none }
                open[oldest.id] = nil
                evicted = oldest.channel
            }
            open[ObjectIdentifier(channel)] = connection
            return .some(evicted)
        }
        guard let evicted else { return nil }
        evicted?.close(promise: nil)
        return connection
    }

    func remove(_ channel: any Channel) {
        _ = open.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }
}

/// One connection's part of `ConnectionLimits`: it asks to be admitted when it opens, and closes the connection
/// when a request's head has not arrived within the deadline. Between a head and its response's end the
/// connection is busy, and the idle timeout and `BodyRateGuard` watch it instead.
///
/// A connection has at most one timer, set when it starts waiting and none is set; when the timer fires it closes
/// the connection if the current wait is over its deadline, sets itself again for a later wait, or lapses while a
/// request is in hand. Requests on a kept-alive connection so schedule and cancel nothing.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let limits: ConnectionLimits
    private var connection: ConnectionLimits.Connection?
    private var timer: Scheduled<Void>?

    init(limits: ConnectionLimits) {
        self.limits = limits
    }

    func handlerAdded(context: ChannelHandlerContext) {
        guard let connection = limits.admit(context.channel) else {
            context.close(promise: nil)
            return
        }
        // Reads of at most 16 KiB: a body streams through a few of them at a time, so an upload held open costs
        // tens of KiB of buffers rather than the hundreds that 64 KiB reads queued before the handler take.
        context.channel.setOption(ChannelOptions.recvAllocator, value: AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 2048, maximum: 16 << 10))
            .whenComplete { _ in }
        self.connection = connection
        setTimer(context, at: .now() + limits.headDeadline)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) { connection?.markBusy() }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data), let connection {
            let now = NIODeadline.now()
            connection.markWaiting(since: now)
            if timer == nil { setTimer(context, at: now + limits.headDeadline) }
        }
        context.write(data, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop(context)
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop(context)
    }

    private func setTimer(_ context: ChannelHandlerContext, at due: NIODeadline) {
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(deadline: due) { bound.value.handler.timerFired(bound.value.context) }
    }

    private func timerFired(_ context: ChannelHandlerContext) {
        timer = nil
        guard let waitingSince = connection?.waitingSince else { return }
        let due = waitingSince + limits.headDeadline
        if due <= .now() {
            context.close(promise: nil)
        } else {
            setTimer(context, at: due)
        }
    }

    private func stop(_ context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        if connection != nil { limits.remove(context.channel) }
        connection = nil
    }
}
