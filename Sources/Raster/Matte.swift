import Primitives

/// A transparent picture composited over a colour (`--matte`), for outputs
/// without (full) alpha.
public struct Matte: Sendable, Hashable {
  /// The colour beneath, premultiplied.
  public var color: PremultipliedColor
  /// Fully transparent pixels stay transparent (a GIF's transparent index);
  /// only partly transparent ones are composited.
  public var keepsClear: Bool

  public init(color: PremultipliedColor, keepsClear: Bool = false) {
    self.color = color
    self.keepsClear = keepsClear
  }

  /// RGBA8 premultiplied pixels over the colour: each channel c + (255 − a)
  /// · m / 255, rounded to nearest (colour kept ≤ alpha).
  public func apply(_ bytes: [UInt8]) -> [UInt8] {
    let m = RGBA8(color)
    let matte = [Int(m.r), Int(m.g), Int(m.b), Int(m.a)]
    var out = bytes
    var i = 0
    while i < out.count {
      let a = Int(out[i + 3])
      if a < 255 && !(keepsClear && a == 0) {
        let alpha = a + ((255 - a) * matte[3] + 127) / 255
        out[i + 3] = UInt8(alpha)
        for c in 0..<3 { out[i + c] = UInt8(min(Int(out[i + c]) + ((255 - a) * matte[c] + 127) / 255, alpha)) }
      }
      i += 4
    }
    return out
  }

  /// A frame over the colour, its tiles keeping their digests (the matte is
  /// the same for every frame of an output).
  public func apply(_ frame: RenderedFrame) -> RenderedFrame {
    RenderedFrame(grid: frame.grid, tiles: frame.tiles, tilePixels: frame.tilePixels.map(apply))
  }

  public func apply(_ pixmap: Pixmap) -> Pixmap { Pixmap(width: pixmap.width, height: pixmap.height, bytes: apply(pixmap.bytes)) }
}
