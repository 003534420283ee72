// Fuzz target `expression` (docs/fuzzing.md): progress expressions (a
// custom transition's `"-6.8*p*p + 5.8*p + 1"`) parsed from any text and
// evaluated; checks that the description parses back to an equal
// expression, as `ProgressExpression.description` promises.
import Syntax

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  let text = String(decoding: bytes, as: UTF8.self)
  let expression: ProgressExpression
  do {
    expression = try ProgressExpression(parsing: text)
  } catch {
    _ = error.message
    return 0
  }
  for p in [0, 0.25, 0.5, 1, -1, 2, 1e300, .nan] { _ = expression.evaluate(p: p) }
  let spelled = expression.description
  // Only a description longer than the limit may fail to parse (see `description`).
  if spelled.unicodeScalars.count <= ProgressExpression.maximumLength {
    guard let again = try? ProgressExpression(parsing: spelled) else {
      fatalError("the description '\(spelled)' of an accepted expression does not parse")
    }
    guard again == expression else { fatalError("the description '\(spelled)' parses to another expression") }
  }
  return 0
}
