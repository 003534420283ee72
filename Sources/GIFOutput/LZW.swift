/// GIF's variable-length LZW (GIF89a appendix F): codes from `minCodeSize + 1`
/// up to 12 bits, packed least significant bit first, a clear code first and
/// whenever the 4096-entry table fills, an end-of-information code last.
public enum GIFLZW {
  /// The code stream for `indices` (not yet cut into sub-blocks). Every
  /// index must be below `1 << minCodeSize`; `minCodeSize` is 2...8.
  public static func encode(_ indices: [UInt8], minCodeSize: Int) -> [UInt8] {
    precondition((2...8).contains(minCodeSize), "LZW minimum code size must be 2...8")
    var encoder = Encoder(minCodeSize: minCodeSize, capacity: indices.count / 2 + 16)
    encoder.encode(indices)
    return encoder.output
  }

  struct Encoder {
    let minCodeSize: Int
    let clearCode: Int, endCode: Int
    var output: [UInt8] = []
    var bits: UInt64 = 0, bitCount = 0
    var codeSize: Int
    var nextCode: Int
    /// Open addressing: key (prefix << 8 | byte) + 1, 0 when empty.
    var keys: [Int32]
    var codes: [UInt16]
    static let tableBits = 13
    static let tableMask = (1 << tableBits) - 1

    init(minCodeSize: Int, capacity: Int) {
      self.minCodeSize = minCodeSize
      clearCode = 1 << minCodeSize
      endCode = clearCode + 1
      codeSize = minCodeSize + 1
      nextCode = clearCode + 2
      keys = [Int32](repeating: 0, count: 1 << Self.tableBits)
      codes = [UInt16](repeating: 0, count: 1 << Self.tableBits)
      output.reserveCapacity(capacity)
    }

    @inline(__always) mutating func put(_ code: Int) {
      bits |= UInt64(code) << UInt64(bitCount)
      bitCount += codeSize
      while bitCount >= 8 {
        output.append(UInt8(truncatingIfNeeded: bits))
        bits >>= 8; bitCount -= 8
      }
    }

    mutating func reset() {
      for i in keys.indices { keys[i] = 0 }
      codeSize = minCodeSize + 1
      nextCode = clearCode + 2
    }

    mutating func encode(_ indices: [UInt8]) {
      put(clearCode)
      guard !indices.isEmpty else {
        put(endCode)
        if bitCount > 0 { output.append(UInt8(truncatingIfNeeded: bits)) }
        return
      }
      var prefix = Int(indices[0])
      var i = 1
      let n = indices.count
      while i < n {
        let byte = Int(indices[i])
        i += 1
        let key = Int32(prefix << 8 | byte) + 1
        var slot = Int((UInt32(bitPattern: key) &* 0x9E37_79B1) >> UInt32(32 - Self.tableBits))
        var found = -1
        while true {
          let k = keys[slot]
          if k == key { found = Int(codes[slot]); break }
          if k == 0 { break }
          slot = (slot + 1) & Self.tableMask
        }
        if found >= 0 { prefix = found; continue }
        put(prefix)
        // The new entry (prefix + byte); the decoder makes it one code later.
        let assigned = nextCode
        keys[slot] = key; codes[slot] = UInt16(assigned)
        nextCode += 1
        if assigned == 4095 {
          put(clearCode)
          reset()
        } else if assigned == 1 << codeSize {
          codeSize += 1
        }
        prefix = byte
      }
      put(prefix)
      // The decoder adds one more entry on reading that last code.
      if nextCode == 1 << codeSize && codeSize < 12 { codeSize += 1 }
      put(endCode)
      if bitCount > 0 { output.append(UInt8(truncatingIfNeeded: bits)) }
    }
  }
}
