import ContractRequests
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// One connection's requests, as NIO's HTTP/1.1 decoder hands them (parsing is NIO's, never
/// ours): the body gathered up to its bound, the answer asked of the server, then written after
/// its delay, or the connection dropped. Requests pipelined on one connection are answered in
/// order (NIO's pipelining handler holds the next until this one's answer ends).
///
/// What one client can make the server hold is bounded: a connection that stops sending, even in
/// the middle of a request, is closed after the idle timeout; the bodies of requests being received or answered on all
/// connections together are held to ``SharedBound``; and an answer waits while the client is not
/// reading the ones before it (pipelined requests whose answers pile up unread).
final class MockHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    struct Limits: Sendable {
        var maxBodyBytes: Int
        /// Shared by every connection of the server: the bytes of bodies held, and the requests
        /// given to the thread pool to check (queued or running).
        var budget: SharedBound
        var checks: SharedBound
    }

    private let server: MockServer
    private let limits: Limits
    /// Bytes of ``body`` taken from the budget, given back when the body is let go.
    private var reserved = 0
    /// A request whose answer waits for the client to read the answers before it, and its head.
    private var waiting: (request: MockRequest, head: HTTPRequestHead)?
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
            guard limits.budget.take(chunk.readableBytes) else {
                if let head {
                    refuseBusy(context, head: head, size: (body?.readableBytes ?? 0) + chunk.readableBytes, what: "\(limits.budget.limit) bytes of request bodies")
                }
                return
            }
            reserved += chunk.readableBytes
            body.setOrWriteBuffer(&chunk)
        case .end:
            guard !refused, let head else { return }
            self.head = nil
            let request = MockRequest(
                method: head.method.rawValue, target: head.uri, headers: head.headers,
                body: body.map { Array($0.readableBytesView) })
            // The request keeps its body's share of the budget until it is answered: one waiting
            // for the client to read, or for a thread of the pool, still holds its bytes.
            body = nil
            // A client that does not read its answers gets the next once it reads: answers of
            // pipelined requests would otherwise pile up in memory for as long as it sends.
            guard context.channel.isWritable else {
                waiting = (request, head)
                return
            }
            answer(request, head: head, context: context)
        }
    }

    /// A contract's request is checked on NIO's thread pool, not on the event loop: a body that
    /// makes a contract's pattern backtrack for seconds held every connection of the loop (the
    /// control API's included) for as long. A control call is answered on the loop.
    private func answer(_ request: MockRequest, head: HTTPRequestHead, context: ChannelHandlerContext) {
        let send = { [self] (reply: MockReply) in
            self.send(reply, context: context, version: head.version, keepAlive: head.isKeepAlive, omitsBody: head.method == .HEAD)
        }
        guard !server.isControl(request) else {
            letBodyGo()
            return send(server.respond(request))
        }
        // Past the pool's bound (clients sending checks that take seconds, faster than they
        // end) a request is refused, not queued without end.
        guard limits.checks.take(1) else {
            return refuseBusy(context, head: head, size: request.body?.count ?? 0, what: "\(limits.checks.limit) requests being checked")
        }
        answering = true
        let (server, alive, checks) = (server, alive, limits.checks)
        let bound = NIOLoopBound((self, send, context), eventLoop: context.eventLoop)
        NIOThreadPool.singleton.runIfActive(eventLoop: context.eventLoop) { () -> MockReply? in
            defer { checks.giveBack(1) }
            // A client gone before its turn is not answered: its check would be work for no one.
            return alive.withLockedValue { $0 } ? server.respond(request) : nil
        }.whenComplete { result in
            let (handler, send, context) = bound.value
            handler.answering = false
            handler.letBodyGo()
            switch result {
            case .success(let reply?): send(reply)
            case .success(nil): break
            case .failure: context.close(promise: nil)
            }
        }
    }

    /// A request is being checked off the loop: the connection is not idle meanwhile.
    private var answering = false
    /// False once the connection has closed; read by a check waiting in the pool.
    private let alive = NIOLockedValueBox(true)
    /// The client half-closed while an answer was on its way: the connection ends once it is written.
    private var closesAfterAnswer = false

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, let (request, head) = waiting {
            waiting = nil
            answer(request, head: head, context: context)
        }
        context.fireChannelWritabilityChanged()
    }

    private func letBodyGo() {
        body = nil
        limits.budget.giveBack(reserved)
        reserved = 0
    }

    /// The server holds as much as it takes already (bodies, or requests being checked): a 503
    /// problem, journaled and logged by the server, then the connection closes.
    private func refuseBusy(_ context: ChannelHandlerContext, head: HTTPRequestHead, size: Int, what: String) {
        refused = true
        letBodyGo()
        let problem = server.refuseBusy(method: head.method.rawValue, target: head.uri, headers: head.headers, size: size, what: what)
        write(problem, context: context, version: head.version, keepAlive: false, omitsBody: false)
    }

    /// A body over the bound: a 413 problem, then the connection closes (the rest is never read).
    private func refuse(_ context: ChannelHandlerContext, head: HTTPRequestHead, size: Int) {
        refused = true
        letBodyGo()
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
        if !keepAlive || closesAfterAnswer {
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            written.whenComplete { _ in bound.value.close(promise: nil) }
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The client sent all it will (a half-close): once nothing is left to answer, the
        // connection ends. NIO's pipelining handler passes this on only after the answer in
        // flight is written; an answer still being checked or waiting closes when written.
        if let event = event as? ChannelEvent, event == .inputClosed {
            if answering || waiting != nil || pending != nil { closesAfterAnswer = true } else { context.close(promise: nil) }
            return
        }
        // Idle: nothing sent for the timeout, and no answer waiting out a delay; a request cut
        // off in its headers or its body too (it held its body's bytes for as long as it liked).
        if event is IdleStateHandler.IdleStateEvent, pending == nil, !answering {
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
        alive.withLockedValue { $0 = false }
        pending?.cancel()
        pending = nil
        letBodyGo()
        waiting = nil
        context.fireChannelInactive()
    }
}


/// The bytes of request bodies being received or answered on all of a server's connections together: each
/// connection may hold up to `--max-body-bytes`, and without a bound for all of them, many
/// connections each stopping short of its end held the server's memory.
final class SharedBound: Sendable {
    let limit: Int
    private let used = NIOLockedValueBox(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Takes `bytes` if they fit; false when they do not (nothing is taken).
    func take(_ bytes: Int) -> Bool {
        used.withLockedValue { used in
            guard used + bytes <= limit else { return false }
            used += bytes
            return true
        }
    }

    func giveBack(_ bytes: Int) {
        guard bytes > 0 else { return }
        used.withLockedValue { $0 -= bytes }
    }
}
