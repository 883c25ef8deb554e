import NIOCore
import NIOHTTP1

/// One connection's requests, as NIO's HTTP/1.1 decoder hands them (parsing is NIO's, never
/// ours): the body gathered up to its bound, the answer asked of the server, then written after
/// its delay, or the connection dropped. Requests pipelined on one connection are answered in
/// order (NIO's pipelining handler holds the next until this one's answer ends).
final class MockHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    struct Limits: Sendable {
        var maxBodyBytes: Int
    }

    private let server: MockServer
    private let limits: Limits
    private var head: HTTPRequestHead?
    private var body: ByteBuffer?
    /// The body went over its bound: the rest of the request is ignored, the connection closed.
    private var refused = false
    /// An answer waits out its delay: the connection is not idle, and the wait ends with it.
    private var pending: Scheduled<Void>?

    init(server: MockServer, limits: Limits) {
        self.server = server
        self.limits = limits
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = nil
            let declared = head.headers.first(name: "Content-Length").flatMap { Int($0) } ?? 0
            if declared > limits.maxBodyBytes {
                refuse(context, head: head, size: declared)
            } else if head.version.major * 10 + head.version.minor >= 11, head.headers[canonicalForm: "Expect"].contains(where: { $0.lowercased() == "100-continue" }) {
                // The client waits for this before it sends the body (curl a second, others longer).
                context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .continue))), promise: nil)
            }
        case .body(var chunk):
            guard !refused else { return }
            if (body?.readableBytes ?? 0) + chunk.readableBytes > limits.maxBodyBytes {
                if let head { refuse(context, head: head, size: (body?.readableBytes ?? 0) + chunk.readableBytes) }
                return
            }
            body.setOrWriteBuffer(&chunk)
        case .end:
            guard !refused, let head else { return }
            self.head = nil
            let request = MockRequest(
                method: head.method.rawValue, target: head.uri, headers: head.headers,
                body: body.map { Array($0.readableBytesView) })
            body = nil
            let reply = server.respond(request)
            send(reply, context: context, version: head.version, keepAlive: head.isKeepAlive, omitsBody: head.method == .HEAD)
        }
    }

    /// A body over the bound: a 413 problem, then the connection closes (the rest is never read).
    private func refuse(_ context: ChannelHandlerContext, head: HTTPRequestHead, size: Int) {
        refused = true
        body = nil
        let problem = server.refuse(method: head.method.rawValue, target: head.uri, headers: head.headers, size: size)
        write(problem, context: context, version: head.version, keepAlive: false, omitsBody: false)
    }

    private func send(_ reply: MockReply, context: ChannelHandlerContext, version: HTTPVersion, keepAlive: Bool, omitsBody: Bool) {
        guard let delay = reply.delay, delay > .zero else {
            finish(reply, context: context, version: version, keepAlive: keepAlive, omitsBody: omitsBody)
            return
        }
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        pending = context.eventLoop.scheduleTask(in: .nanoseconds(MockServer.nanoseconds(delay))) {
            let (handler, context) = bound.value
            handler.pending = nil
            handler.finish(reply, context: context, version: version, keepAlive: keepAlive, omitsBody: omitsBody)
        }
    }

    private func finish(_ reply: MockReply, context: ChannelHandlerContext, version: HTTPVersion, keepAlive: Bool, omitsBody: Bool) {
        guard !reply.dropsConnection else {
            context.close(promise: nil)
            return
        }
        write(reply, context: context, version: version, keepAlive: keepAlive, omitsBody: omitsBody)
    }

    private func write(_ reply: MockReply, context: ChannelHandlerContext, version: HTTPVersion, keepAlive: Bool, omitsBody: Bool) {
        var headers = reply.headers
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        // A status fault may make a fixture's answer one that has no body (a 204): its body and
        // length go, or the client would read them as the next answer.
        let allowsBody = MockReply.allowsBody(reply.status)
        if !allowsBody, headers.contains(name: "Content-Length") {
            headers.remove(name: "Content-Length")
            if MockReply.sendsLength(reply.status) { headers.add(name: "Content-Length", value: "0") }
        }
        let head = HTTPResponseHead(version: version, status: HTTPResponseStatus(statusCode: reply.status), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if reply.body.readableBytes > 0, !omitsBody, allowsBody {
            context.write(wrapOutboundOut(.body(.byteBuffer(reply.body))), promise: nil)
        }
        let written = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive {
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            written.whenComplete { _ in bound.value.close(promise: nil) }
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // Idle: nothing sent for the timeout, and no answer waiting out a delay.
        if event is IdleStateHandler.IdleStateEvent, pending == nil, head == nil {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// A request NIO cannot parse (a header over its bound, not HTTP at all): its error handler
    /// has answered 400, and the connection, whose next bytes cannot be trusted, closes.
    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        pending?.cancel()
        pending = nil
        context.fireChannelInactive()
    }
}

