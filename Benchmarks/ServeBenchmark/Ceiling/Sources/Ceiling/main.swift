// A minimal SwiftNIO HTTP/1.1 server that answers each known request target with bytes captured
// from `contract serve` (status, headers, body), for Benchmarks/ServeBenchmark/run.sh.
//
// Usage: Ceiling PORT TARGET HEAD-FILE BODY-FILE [TARGET HEAD-FILE BODY-FILE ...]
// HEAD-FILE is what `curl -D` wrote: the status line, then the header lines. Content-Length and
// Connection are written here, as `contract serve` writes them. The first line of standard
// output is the URL, as `contract serve --port 0` prints it.
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

struct Answer: Sendable {
    var status: HTTPResponseStatus
    var headers: HTTPHeaders
    var body: ByteBuffer
}

func load(head path: String, body bodyPath: String) throws -> Answer {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let lines = text.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" }).map(String.init)
    guard let statusLine = lines.first, let code = statusLine.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else {
        throw CocoaError(.fileReadCorruptFile)
    }
    let body = try Data(contentsOf: URL(fileURLWithPath: bodyPath))
    var headers = HTTPHeaders()
    for line in lines.dropFirst() {
        guard let colon = line.firstIndex(of: ":") else { continue }
        let name = String(line[..<colon])
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        if ["content-length", "connection", "transfer-encoding"].contains(name.lowercased()) { continue }
        headers.add(name: name, value: value)
    }
    headers.add(name: "Content-Length", value: String(body.count))
    return Answer(status: HTTPResponseStatus(statusCode: code), headers: headers, body: ByteBuffer(bytes: body))
}

final class FixedAnswerHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let answers: [String: Answer]
    private var head: HTTPRequestHead?

    init(answers: [String: Answer]) {
        self.answers = answers
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): self.head = head
        case .body: break
        case .end:
            guard let head else { return }
            self.head = nil
            let answer = answers[head.uri] ?? Answer(status: .notFound, headers: ["Content-Length": "0"], body: ByteBuffer())
            var headers = answer.headers
            if !head.isKeepAlive { headers.add(name: "Connection", value: "close") }
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: answer.status, headers: headers))), promise: nil)
            if answer.body.readableBytes > 0, head.method != .HEAD {
                context.write(wrapOutboundOut(.body(.byteBuffer(answer.body))), promise: nil)
            }
            let written = context.writeAndFlush(wrapOutboundOut(.end(nil)))
            if !head.isKeepAlive {
                let channel = context.channel
                written.whenComplete { _ in channel.close(promise: nil) }
            }
        }
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 4, (arguments.count - 1) % 3 == 0, let port = Int(arguments[0]) else {
    FileHandle.standardError.write(Data("usage: Ceiling PORT TARGET HEAD-FILE BODY-FILE [...]\n".utf8))
    exit(2)
}
var answers: [String: Answer] = [:]
for index in stride(from: 1, to: arguments.count, by: 3) {
    answers[arguments[index]] = try load(head: arguments[index + 1], body: arguments[index + 2])
}
let fixed = answers
let channel = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
    .serverChannelOption(ChannelOptions.backlog, value: 256)
    .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
    .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
            try channel.pipeline.syncOperations.addHandler(FixedAnswerHandler(answers: fixed))
        }
    }
    .childChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
    .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
    .bind(host: "127.0.0.1", port: port)
    .wait()
FileHandle.standardOutput.write(Data("http://127.0.0.1:\(channel.localAddress?.port ?? port)\n".utf8))
try channel.closeFuture.wait()
