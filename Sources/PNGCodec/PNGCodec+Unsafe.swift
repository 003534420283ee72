// The pointer loop of PNG decoding: the straight RGBA8 pixels libpng wrote,
// premultiplied in place.
//
// Safe twin: `PNG.referencePremultiplied(_:)` in PNGCodec.swift, the
// same rounding (`premultiply(_:_:)`) pixel by pixel on an array.
// PNGCodecTests compares the two on random pixels of every alpha.
extension PNG {
  /// Premultiplies straight RGBA8 `pixels` in place: c → round(c · a / 255);
  /// alpha 0 clears the colour, alpha 255 keeps it.
  static func premultiply(_ pixels: UnsafeMutableBufferPointer<UInt8>) {
    var pixel = 0
    let end = pixels.count - 3
    while pixel < end {
      let alpha = pixels[pixel + 3]
      if alpha == 0 {
        pixels[pixel] = 0; pixels[pixel + 1] = 0; pixels[pixel + 2] = 0
      } else if alpha != 255 {
        pixels[pixel] = premultiply(pixels[pixel], alpha)
        pixels[pixel + 1] = premultiply(pixels[pixel + 1], alpha)
        pixels[pixel + 2] = premultiply(pixels[pixel + 2], alpha)
      }
      pixel &+= 4
    }
  }
}
