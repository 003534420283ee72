/// Where a line of text may break, by the rules of Unicode line breaking
/// (UAX #14) that matter for UI text, with the Japanese rules of
/// docs/scene-format.md ("Text"):
///
/// - after a run of spaces (and after a zero-width space), never before a space;
/// - after a hyphen or a dash followed by a letter;
/// - before and after ideographs, kana and fullwidth forms (Chinese and
///   Japanese break between any two characters), and between them and
///   other letters;
/// - never before closing punctuation, `、。，．・：；！？`, `ー`, `…` and
///   small kana (they stay at the end of the line, hanging past its width
///   rather than starting the next), never after opening brackets `「『（【〔〈《`
///   and opening quotes;
/// - never around a no-break space or a word joiner, never before a
///   combining mark, a variation selector or a zero-width joiner.
///
/// Everything else (letters, digits, their punctuation) stays together.
public enum LineBreaking {
  /// Whether a break is allowed before each scalar (index 0 is never one).
  public static func opportunities(_ s: [Unicode.Scalar]) -> [Bool] {
    var out = [Bool](repeating: false, count: s.count)
    guard s.count > 1 else { return out }
    for i in 1..<s.count {
      out[i] = allowed(before: s[i], after: s[i - 1], following: i + 1 < s.count ? s[i + 1] : nil)
    }
    return out
  }

  static func allowed(before b: Unicode.Scalar, after a: Unicode.Scalar, following: Unicode.Scalar?) -> Bool {
    if isSpace(b) || isGlue(a) || isGlue(b) || isCombining(b) { return false }
    if closesLine(b) { return false }
    if opensLine(a) { return false }
    if isSpace(a) || a.value == 0x200B { return true }
    if isHyphen(a) { return isLetter(b) }
    if isIdeographic(a) || isIdeographic(b) { return true }
    return false
  }

  /// Characters that never start a line: closing brackets and quotes, the
  /// Japanese full stop and comma, `ー`, small kana, `…`, and the Latin
  /// punctuation that closes a word.
  public static func closesLine(_ c: Unicode.Scalar) -> Bool {
    switch c.value {
    case 0x3001, 0x3002, 0xFF0C, 0xFF0E, 0x30FB, 0xFF1A, 0xFF1B, 0xFF01, 0xFF1F, 0x30FC, 0x2026, 0x2025, 0x309D, 0x309E, 0x30FD, 0x30FE,
      0x3005:
      return true
    case 0x300D, 0x300F, 0xFF09, 0x3011, 0x3015, 0x3009, 0x300B, 0x3017, 0x3019, 0x301B, 0x301E, 0x301F, 0xFF3D, 0xFF5D:
      return true
    case 0x3041, 0x3043, 0x3045, 0x3047, 0x3049, 0x3063, 0x3083, 0x3085, 0x3087, 0x308E, 0x3095, 0x3096:
      return true
    case 0x30A1, 0x30A3, 0x30A5, 0x30A7, 0x30A9, 0x30C3, 0x30E3, 0x30E5, 0x30E7, 0x30EE, 0x30F5, 0x30F6:
      return true
    default:
      return ")]}!?,.:;%\u{2019}\u{201D}".unicodeScalars.contains(c)
    }
  }

  /// Characters that never end a line: opening brackets and quotes.
  public static func opensLine(_ c: Unicode.Scalar) -> Bool {
    switch c.value {
    case 0x300C, 0x300E, 0xFF08, 0x3010, 0x3014, 0x3008, 0x300A, 0x3016, 0x3018, 0x301A, 0x301D, 0xFF3B, 0xFF5B: return true
    default: return "([{\u{2018}\u{201C}".unicodeScalars.contains(c)
    }
  }

  public static func isSpace(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" || c.value == 0x3000 }

  static func isGlue(_ c: Unicode.Scalar) -> Bool { c.value == 0x00A0 || c.value == 0x2060 || c.value == 0x202F || c.value == 0xFEFF }

  /// Combining marks, variation selectors and joiners: they belong to the
  /// character before them (shaped with it, never broken from it).
  public static func isCombining(_ c: Unicode.Scalar) -> Bool {
    switch c.properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark: return true
    default: return c.value == 0x200D || (0xFE00...0xFE0F).contains(c.value) || (0xE0100...0xE01EF).contains(c.value)
    }
  }

  static func isHyphen(_ c: Unicode.Scalar) -> Bool { c == "-" || c.value == 0x2010 || c.value == 0x2013 || c.value == 0x2014 }

  static func isLetter(_ c: Unicode.Scalar) -> Bool { c.properties.isAlphabetic }

  /// Ideographs, kana, Hangul, CJK symbols and fullwidth forms: a line may
  /// break on either side of them.
  public static func isIdeographic(_ c: Unicode.Scalar) -> Bool {
    switch c.value {
    case 0x2E80...0x2FDF, 0x3000...0x303F, 0x3040...0x30FF, 0x3100...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7AF,
      0xF900...0xFAFF, 0xFF00...0xFFEF, 0x20000...0x3FFFD:
      return true
    default:
      return false
    }
  }
}
