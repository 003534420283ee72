import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import Synchronization

/// The preview's HTTP/1 server on the loopback interface (SwiftNIO's
/// handlers parse; this answers): the page, `/scene`, `/frame.png`,
/// `/chart.svg`, and `/events`, a WebSocket that pushes the scene's state
/// to the page whenever it changes.
public final class PreviewServer: Sendable {
  let session: PreviewSession
  let frames: FrameService
  private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
  private let listening = Mutex<NIOAsyncChannel<EventLoopFuture<Connection>, Never>?>(nil)

  /// How many ports past the default one are tried when it is taken.
  public static let portsTried = 20

  enum Connection: Sendable {
    case websocket(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>)
    case http(NIOAsyncChannel<HTTPServerRequestPart, HTTPPart<HTTPResponseHead, ByteBuffer>>)
  }

  public init(session: PreviewSession, frames: FrameService) {
    self.session = session
    self.frames = frames
  }

  /// Listens on 127.0.0.1: on `port`, or when `searching`, on the first
  /// free port from `port` on. Returns the port.
  public func bind(port: Int, searching: Bool) async throws -> Int {
    let last = searching ? port + Self.portsTried - 1 : port
    for candidate in port...max(port, last) {
      do {
        let channel = try await bind(candidate)
        listening.withLock { $0 = channel }
        return channel.channel.localAddress?.port ?? candidate
      } catch let error as IOError where error.errnoCode == EADDRINUSE {
        continue
      }
    }
    throw PreviewError.portInUse(port)
  }

  private func bind(_ port: Int) async throws -> NIOAsyncChannel<EventLoopFuture<Connection>, Never> {
    try await ServerBootstrap(group: group)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
      .bind(host: "127.0.0.1", port: port) { channel in
        channel.eventLoop.makeCompletedFuture {
          let upgrader = NIOTypedWebSocketServerUpgrader<Connection>(
            maxFrameSize: 1 << 16,
            // UpgradeGate has let through only upgrades to /events that
            // pass the trust checks.
            shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture(HTTPHeaders()) },
            upgradePipelineHandler: { channel, _ in
              channel.eventLoop.makeCompletedFuture {
                .websocket(try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(wrappingChannelSynchronously: channel))
              }
            })
          let configuration = NIOTypedHTTPServerUpgradeConfiguration<Connection>(
            upgraders: [upgrader],
            notUpgradingCompletionHandler: { channel in
              channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(ResponsePartHandler())
                return .http(try NIOAsyncChannel(wrappingChannelSynchronously: channel))
              }
            })
          let negotiated = try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(
            configuration: .init(upgradeConfiguration: configuration))
          let decoder = try channel.pipeline.syncOperations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
          try channel.pipeline.syncOperations.addHandler(UpgradeGate(), position: .after(decoder))
          return negotiated
        }
      }
  }

  /// Answers connections until `close`.
  public func serve() async {
    guard let channel = listening.withLock({ $0 }) else { return }
    try? await withThrowingDiscardingTaskGroup { group in
      try await channel.executeThenClose { inbound in
        for try await connection in inbound {
          group.addTask { await self.handle(connection) }
        }
      }
      group.cancelAll()
    }
  }

  /// Closes the port (connections end with the process).
  public func close() {
    guard let channel = listening.withLock({ $0 }) else { return }
    try? channel.channel.close().wait()
  }

  private func handle(_ connection: EventLoopFuture<Connection>) async {
    do {
      switch try await connection.get() {
      case .websocket(let channel): try await events(channel)
      case .http(let channel): try await requests(channel)
      }
    } catch {
      // A connection that fails ends alone.
    }
  }

  /// Requests on one connection, answered in order.
  private func requests(_ channel: NIOAsyncChannel<HTTPServerRequestPart, HTTPPart<HTTPResponseHead, ByteBuffer>>) async throws {
    let port = channel.channel.localAddress?.port ?? 0
    try await channel.executeThenClose { inbound, outbound in
      var head: HTTPRequestHead?
      var bodyBytes = 0
      for try await part in inbound {
        switch part {
        case .head(let h):
          head = h
          bodyBytes = 0
        case .body(let buffer):
          bodyBytes += buffer.readableBytes
          // No route takes a body.
          if bodyBytes > 1 << 20 { return }
        case .end:
          guard let h = head else { continue }
          let reply = await answer(h, port: port)
          let keepAlive = h.isKeepAlive && reply.status != 403 && reply.status != 405
          var headers = HTTPHeaders()
          headers.add(name: "Content-Type", value: reply.type)
          headers.add(name: "Content-Length", value: "\(reply.body.count)")
          headers.add(name: "Cache-Control", value: "no-store")
          headers.add(name: "X-Content-Type-Options", value: "nosniff")
          headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
          for (name, value) in reply.headers { headers.add(name: name, value: value) }
          let responseHead = HTTPResponseHead(version: h.version, status: HTTPResponseStatus(statusCode: reply.status), headers: headers)
          var parts: [HTTPPart<HTTPResponseHead, ByteBuffer>] = [.head(responseHead)]
          if h.method != .HEAD, !reply.body.isEmpty { parts.append(.body(ByteBuffer(bytes: reply.body))) }
          parts.append(.end(nil))
          try await outbound.write(contentsOf: parts)
          if !keepAlive { return }
          head = nil
        }
      }
    }
  }

  /// The answer to one request.
  func answer(_ head: HTTPRequestHead, port: Int) async -> PreviewRoutes.Reply {
    if let refused = PreviewRoutes.refusal(method: "\(head.method)", host: head.headers["host"], origin: head.headers["origin"], port: port) {
      return refused
    }
    let (path, query) = PreviewRoutes.split(head.uri)
    if !head.headers[UpgradeGate.refused].isEmpty || PreviewRoutes.isUpgrade(head.headers.map { ($0.name, $0.value) }) {
      return .text(path == "/events" ? 400 : 404, path == "/events" ? "400 Bad Request: not a WebSocket upgrade" : "404 Not Found")
    }
    switch path {
    case "/":
      return PreviewRoutes.Reply(
        status: 200, type: "text/html; charset=utf-8", body: Array(PreviewPage.html(scene: session.settings.scene).utf8),
        headers: [("Content-Security-Policy", PreviewPage.contentSecurityPolicy(port: port))])
    case "/preview.js":
      return PreviewRoutes.Reply(status: 200, type: "text/javascript; charset=utf-8", body: Array(PreviewPage.script.utf8))
    case "/favicon.svg":
      return PreviewRoutes.Reply(status: 200, type: "image/svg+xml", body: Array(PreviewPage.icon.utf8))
    case "/preview.css":
      return PreviewRoutes.Reply(status: 200, type: "text/css; charset=utf-8", body: Array(PreviewPage.css.utf8))
    case "/scene":
      return PreviewRoutes.Reply(status: 200, type: "application/json", body: Array(session.state.json.utf8))
    case "/frame.png":
      let state = session.state
      if let error = state.error { return .text(409, error) }
      guard let version = session.version else { return .text(409, "the scene has not loaded") }
      guard let t = PreviewRoutes.time(query["t"]), t >= 0, t <= version.source.duration else {
        return .text(
          400, "400 Bad Request: t must be a scene time from 0 to \(version.source.duration) seconds, got \(query["t"].map { "\"\($0)\"" } ?? "none")"
        )
      }
      switch await frames.frame(version, at: t) {
      case .png(let bytes, let generation):
        return PreviewRoutes.Reply(status: 200, type: "image/png", body: bytes, headers: [("X-Generation", "\(generation)"), ("X-Time", "\(t)")])
      case .failed(let message):
        return .text(500, "\(session.settings.scene):\(message)")
      }
    case "/chart.svg", "/chart.json":
      // The geometry is null, not 404, when nothing animates: the page asks
      // for it every version and a 404 is an error in the browser's console.
      guard let version = session.version, let chart = await version.chartLater() else {
        return path == "/chart.svg"
          ? .text(404, "404 Not Found: the scene animates nothing to chart")
          : PreviewRoutes.Reply(status: 200, type: "application/json", body: Array("null".utf8))
      }
      let generation = [("X-Generation", "\(version.generation)")]
      return path == "/chart.svg"
        ? PreviewRoutes.Reply(status: 200, type: "image/svg+xml", body: Array(chart.svg.utf8), headers: generation)
        : PreviewRoutes.Reply(status: 200, type: "application/json", body: Array(chart.json.utf8), headers: generation)
    case "/events":
      return .text(426, "426 Upgrade Required: /events is a WebSocket")
    default:
      return .text(404, "404 Not Found")
    }
  }

  /// The scene's state, pushed at once and on every change; pings
  /// answered, a close returned.
  private func events(_ channel: NIOAsyncChannel<WebSocketFrame, WebSocketFrame>) async throws {
    try await channel.executeThenClose { inbound, outbound in
      let (states, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(8))
      let id = session.listen { continuation.yield($0.json) }
      defer {
        session.stopListening(id)
        continuation.finish()
      }
      continuation.yield(session.state.json)
      try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
          for await text in states {
            try await outbound.write(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: text)))
          }
        }
        group.addTask {
          for try await frame in inbound {
            switch frame.opcode {
            case .ping:
              try await outbound.write(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData))
            case .connectionClose:
              var data = frame.unmaskedData
              let code = data.readSlice(length: 2) ?? ByteBuffer()
              try await outbound.write(WebSocketFrame(fin: true, opcode: .connectionClose, data: code))
              return
            default:
              break
            }
          }
        }
        try await group.next()
        group.cancelAll()
      }
    }
  }
}

/// Lets through to the upgrade handler only the upgrades it should make:
/// to `/events`, with this server's Host and the page's Origin (or none).
/// Any other request to upgrade goes on as a plain request, marked, and
/// is answered there: 403 for the trust checks, 404 for another path. (A
/// WebSocket upgrader's refusal would end the connection unanswered.)
final class UpgradeGate: ChannelInboundHandler, RemovableChannelHandler, Sendable {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart

  /// The header that marks a refused upgrade.
  static let refused = "X-Springframe-Refused-Upgrade"

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    // Only a connection's first request may upgrade it (as for the upgrade
    // handler): the gate leaves once it has passed, before the WebSocket's
    // frames, if any, follow.
    defer { context.pipeline.syncOperations.removeHandler(context: context, promise: nil) }
    guard case .head(var head) = unwrapInboundIn(data), !head.headers["upgrade"].isEmpty else {
      context.fireChannelRead(data)
      return
    }
    let port = context.channel.localAddress?.port ?? 0
    let path = PreviewRoutes.split(head.uri).path
    if path != "/events"
      || PreviewRoutes.refusal(method: "\(head.method)", host: head.headers["host"], origin: head.headers["origin"], port: port) != nil
    {
      head.headers.remove(name: "upgrade")
      head.headers.add(name: Self.refused, value: "1")
    }
    context.fireChannelRead(wrapInboundOut(.head(head)))
  }
}

/// The async channel's response parts as HTTP/1's.
final class ResponsePartHandler: ChannelOutboundHandler, Sendable {
  typealias OutboundIn = HTTPPart<HTTPResponseHead, ByteBuffer>
  typealias OutboundOut = HTTPServerResponsePart

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    switch unwrapOutboundIn(data) {
    case .head(let head): context.write(wrapOutboundOut(.head(head)), promise: promise)
    case .body(let buffer): context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: promise)
    case .end(let trailers): context.write(wrapOutboundOut(.end(trailers)), promise: promise)
    }
  }
}
