/// How much of the input a message quotes: about 40 characters each
/// (docs/cli.md), so that a 50 MB string in a scene is never echoed whole.
public enum Excerpt {
  /// Characters of input one message quotes at most.
  public static let width = 40

  /// `text` cut to `limit` characters, the cut marked with `…`. Reads at
  /// most `limit + 1` characters of `text`, however long it is.
  public static func capped(_ text: some StringProtocol, limit: Int = width) -> String {
    let head = text.prefix(limit + 1)
    guard head.count > limit else { return String(head) }
    return String(head.prefix(limit - 1)) + "…"
  }

  /// `text` in single quotes, capped: `'#12345678901…'`.
  public static func quoted(_ text: some StringProtocol) -> String {
    "'" + capped(text) + "'"
  }

  /// The `width` characters of `text` around `range` (character offsets),
  /// with `…` where the text goes on, and the range's offset within that
  /// window: for a caret line under a long source.
  public static func window(_ text: String, around range: Range<Int>) -> (text: String, range: Range<Int>) {
    let characters = Array(text.unicodeScalars)
    let lower = min(max(0, range.lowerBound), characters.count)
    let upper = min(max(lower, range.upperBound), characters.count)
    if characters.count <= width { return (text, lower..<upper) }
    let start = max(0, min(lower - width / 4, characters.count - width))
    let end = min(characters.count, start + width)
    var view = String.UnicodeScalarView()
    if start > 0 { view.append("…") }
    view.append(contentsOf: characters[start..<end])
    if end < characters.count { view.append("…") }
    let shift = start > 0 ? 1 - start : 0
    let marked = (lower + shift)..<max(lower + shift, min(upper, end) + shift)
    return (String(view), marked)
  }
}
