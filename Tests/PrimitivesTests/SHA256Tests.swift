import Primitives
import Testing

/// SHA-256 against FIPS 180-4's examples and the NIST test vectors.
@Suite struct SHA256Tests {
  @Test(
    arguments: [
      ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
      ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
      ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
      (
        "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
        "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
      ),
    ] as [(String, String)])
  func knownDigests(_ message: String, _ digest: String) {
    #expect(SHA256.hex(Array(message.utf8)) == digest)
  }

  /// A million 'a's (FIPS 180-4), fed in uneven pieces: the same digest
  /// however the bytes are split.
  @Test func millionAsInPieces() {
    var h = SHA256()
    var fed = 0
    var piece = 1
    while fed < 1_000_000 {
      let n = min(piece, 1_000_000 - fed)
      h.update([UInt8](repeating: UInt8(ascii: "a"), count: n))
      fed += n
      piece = piece * 7 % 1000 + 1
    }
    #expect(h.hex() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }
}
