// Fuzz target `png` (docs/fuzzing.md): the PNG loader (libpng, through
// PNGCodec and its C shim) on any bytes; an image it accepts is encoded
// again and must decode to the same pixels, as `PNG` promises (writing is
// lossless).
import PNGCodec
import Raster

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  // An image of more than 4 Mpixels (up to `PNG.maxPixelCount`, 1 GiB) only
  // costs memory: the decoder allocates its pixels before reading any, and
  // 2 GB is the fuzzer's limit. The header is where PNG puts it.
  if bytes.count >= 24, bytes[12..<16].elementsEqual("IHDR".utf8) {
    let be32 = { (i: Int) in Double(bytes[i..<i + 4].reduce(0) { $0 << 8 | Int($1) }) }
    let pixels = be32(16) * be32(20)
    if pixels > Double(1 << 22) && pixels <= Double(PNG.maxPixelCount) { return 0 }
  }
  let pixmap: Pixmap
  do {
    pixmap = try PNG.decode(bytes, name: "fuzz.png")
  } catch {
    _ = error.description
    return 0
  }
  guard pixmap.width * pixmap.height <= 256 * 256 else { return 0 }
  do {
    let again = try PNG.decode(try PNG.encode(pixmap), name: "again.png")
    guard again == pixmap else { fatalError("a decoded \(pixmap.width)×\(pixmap.height) image encodes to other pixels") }
  } catch {
    fatalError("a decoded \(pixmap.width)×\(pixmap.height) image does not encode and decode again: \(error)")
  }
  return 0
}
