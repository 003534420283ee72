import Foundation

/// What the preview answers, request by request, apart from the sockets:
/// the trust checks (Host, Origin, method), the routes, and the `t` of a
/// frame. Only the page, its state, its chart and frames drawn from the
/// scene are served; no path names a file, so none is read.
public enum PreviewRoutes {
  /// An answer: status, content type, body and extra headers.
  public struct Reply: Sendable {
    public var status: Int
    public var type: String
    public var body: [UInt8]
    public var headers: [(String, String)] = []

    public init(status: Int, type: String = "text/plain; charset=utf-8", body: [UInt8], headers: [(String, String)] = []) {
      self.status = status
      self.type = type
      self.body = body
      self.headers = headers
    }

    public static func text(_ status: Int, _ text: String) -> Reply { Reply(status: status, body: Array((text + "\n").utf8)) }
  }

  /// The Host values a request may carry, on port `port`.
  public static func hosts(port: Int) -> Set<String> { ["127.0.0.1:\(port)", "localhost:\(port)"] }

  /// The page's own origins, on port `port`.
  public static func origins(port: Int) -> Set<String> { ["http://127.0.0.1:\(port)", "http://localhost:\(port)"] }

  /// Why a request is refused before it is routed, or nil: a Host other
  /// than this server's (a page elsewhere reaching it through DNS
  /// rebinding), an Origin other than the page's (another site's page,
  /// any method, any upgrade), a method other than GET and HEAD.
  public static func refusal(method: String, host: [String], origin: [String], port: Int) -> Reply? {
    guard host.count == 1, hosts(port: port).contains(host[0].lowercased()) else {
      return .text(403, "403 Forbidden: this preview answers requests for 127.0.0.1:\(port) or localhost:\(port) only")
    }
    if let given = origin.first, origin.count > 1 || !origins(port: port).contains(given.lowercased()) {
      return .text(403, "403 Forbidden: requests from pages other than the preview's own are refused")
    }
    guard method == "GET" || method == "HEAD" else {
      return Reply(status: 405, body: Array("405 Method Not Allowed: the preview answers GET only\n".utf8), headers: [("Allow", "GET, HEAD")])
    }
    return nil
  }

  /// The path and the query's parameters of a request target.
  public static func split(_ uri: String) -> (path: String, query: [String: String]) {
    let parts = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    var query: [String: String] = [:]
    if parts.count > 1 {
      for pair in parts[1].split(separator: "&") {
        let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let key = decode(kv[0]) ?? ""
        if query[key] == nil { query[key] = kv.count > 1 ? decode(kv[1]) : "" }
      }
    }
    return (String(parts[0]), query)
  }

  /// Percent-decoding, with `+` as a space; nil when malformed.
  static func decode(_ text: Substring) -> String? {
    text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
  }

  /// A scene time as a query gives it: a decimal number (no `nan`, `inf`
  /// or hexadecimal), else nil.
  public static func time(_ text: String?) -> Double? {
    guard let text, !text.isEmpty, text.count <= 64 else { return nil }
    var sawDigit = false, sawExponent = false, sawPoint = false, previous: Character = " "
    for (i, c) in text.enumerated() {
      switch c {
      case "0"..."9": sawDigit = true
      case "+", "-": guard i == 0 || previous == "e" || previous == "E" else { return nil }
      case ".": guard !sawPoint, !sawExponent else { return nil }; sawPoint = true
      case "e", "E": guard sawDigit, !sawExponent else { return nil }; sawExponent = true
      default: return nil
      }
      previous = c
    }
    guard sawDigit, let value = Double(text), value.isFinite else { return nil }
    return value
  }

  /// Whether the request asks to switch protocols.
  public static func isUpgrade(_ headers: [(String, String)]) -> Bool {
    headers.contains { $0.0.lowercased() == "upgrade" }
  }
}
