import Primitives

/// "Did you mean" suggestions for misspelled names, shared by every parser.
public enum Suggestions {
  /// Longest word (UTF-8 bytes) that gets a suggestion.
  public static let maximumWordLength = 4 * Excerpt.width

  /// The candidate nearest to `word` by edit distance (case-insensitive), if it
  /// is close enough to be a plausible typo: at most a third of the longer
  /// word's length, and at least 1 edit allowed.
  public static func nearest<C: Collection>(to word: String, in candidates: C) -> String?
  where C.Element == String {
    // A word far longer than any name is no typo (and a 50 MB string must
    // not cost an edit distance per candidate).
    guard word.utf8.count <= maximumWordLength else { return nil }
    let lowered = Array(word.lowercased())
    var best: (name: String, distance: Int)?
    for candidate in candidates {
      let d = editDistance(lowered, Array(candidate.lowercased()))
      if best == nil || d < best!.distance { best = (candidate, d) }
    }
    guard let best else { return nil }
    let allowed = max(1, max(word.count, best.name.count) / 3)
    return best.distance <= allowed ? best.name : nil
  }

  /// `"; did you mean 'x'?"` or the empty string.
  public static func didYouMean<C: Collection>(_ word: String, in candidates: C) -> String
  where C.Element == String {
    nearest(to: word, in: candidates).map { "; did you mean \(Excerpt.quoted($0))?" } ?? ""
  }

  /// Optimal string alignment distance (Levenshtein plus adjacent
  /// transpositions, so "sprnig" is one edit from "spring").
  public static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous2 = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          value = min(value, previous2[j - 2] + 1)
        }
        current[j] = value
      }
      (previous2, previous, current) = (previous, current, previous2)
    }
    return previous[b.count]
  }
}
