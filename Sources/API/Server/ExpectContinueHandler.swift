import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers `Expect: 100-continue` with `100 Continue`, which Hummingbird does not do.
///
/// A client that sends the header (curl does for bodies over 1 MiB, and so do some HTTP libraries) holds the
/// body back until it hears `100 Continue` or gives up waiting, which for curl takes a second: every large vCard
/// import stalled that long. RFC 9110 §10.1.1 lets a server send `100 Continue` before reading the body, so this
/// handler does so as soon as the request head arrives; the request then goes on without the expectation.
/// Requests reach it one at a time (HTTP/1 pipelining is serialised before it), so the interim response never
/// lands inside another request's response.
///
/// Inbound only, so responses do not pass through it on their way out.
final class ExpectContinueHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var request) = unwrapInboundIn(data), Self.expectsContinue(request.headerFields) else {
            context.fireChannelRead(data)
            return
        }
        request.headerFields[.expect] = nil
        context.writeAndFlush(NIOAny(HTTPResponsePart.head(HTTPResponse(status: .continue))), promise: nil)
        context.fireChannelRead(wrapInboundOut(.head(request)))
    }

    /// True when the `Expect` field names `100-continue` (case-insensitive, RFC 9110 §10.1.1).
    static func expectsContinue(_ fields: HTTPFields) -> Bool {
        fields[values: .expect].contains { value in
            value.split(separator: ",").contains { $0.filter { $0 != " " && $0 != "\t" }.lowercased() == "100-continue" }
        }
    }
}
