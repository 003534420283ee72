import Foundation
import PortableMath
import Primitives
import Raster
import Render
import SceneModel
import Testing

/// `rotation3D` drawn: the projected outline where SCENE.md's formula puts
/// it, to a fraction of a pixel, measured in the rendered frame.
@Suite struct Rotation3DTests {
  func render(_ layer: String, at t: Double = 0, timeline: String = "[]") throws -> Pixmap {
    let text =
      ##"{"version": 1, "size": [200, 100], "scale": 1, "background": "white", "layers": ["## + layer + ##"], "timeline": "## + timeline + "}"
    let scene = try SceneDecoder.decode(Array(text.utf8), file: "t.json", defaultName: "t")
    return try SceneRenderer(scene: scene).render(at: t)
  }

  /// A black 100 × 60 rect centred at (100, 50), turned 50° about y (D =
  /// 100). Its vertical edges stay vertical: the left one, 50 points
  /// nearer by sin 50°, lands at 100 − 50 cos 50° / (1 − 50 sin 50°/100),
  /// the right one at 100 + 50 cos 50° / (1 + 50 sin 50°/100). On the rows
  /// through the middle, the ink adds up to the distance between them.
  @Test func theOutlineIsWhereTheFormulaPutsIt() throws {
    let p = try render(
      ##"{"type": "rect", "size": [100, 60], "position": [100, 50], "fill": "black", "rotation3D": {"angle": 50, "axis": [0, 1, 0]}}"##)
    let (s, c) = (Elementary.sin(50 * .pi / 180), Elementary.cos(50 * .pi / 180))
    let left = 100 - 50 * c / (1 - 50 * s / 100), right = 100 + 50 * c / (1 + 50 * s / 100)
    for y in [46, 49, 50, 53] {
      let ink = (0..<200).reduce(0.0) { $0 + Double(255 - Int(p[$1, y].r)) / 255 }
      #expect(abs(ink - (right - left)) < 0.15, "row \(y): \(ink) vs \(right - left)")
      // Well inside, black; well outside, white.
      #expect(p[Int(left) + 2, y].r == 0 && p[Int(right) - 2, y].r == 0)
      #expect(p[Int(left) - 2, y].r == 255 && p[Int(right) + 2, y].r == 255)
    }
    // The far (right) edge is shorter: its half-height is 30 / (1 + 50 sin 50°/100).
    let half = 30 / (1 + 50 * s / 100)
    let column = Int(right) - 1
    let tall = (0..<100).reduce(0.0) { $0 + Double(255 - Int(p[column, $1].r)) / 255 }
    #expect(abs(tall - 2 * half) < 0.6, "\(tall) vs \(2 * half)")
  }

  /// The angle animates; at 0 the layer is drawn as if it had no rotation3D.
  @Test func theAngleAnimatesAndZeroIsFlat() throws {
    let layer =
      ##"{"id": "r", "type": "rect", "size": [100, 60], "position": [100, 50], "fill": "black", "rotation3D": {"angle": 0, "axis": [0, 1, 0]}}"##
    let flat = try render(##"{"type": "rect", "size": [100, 60], "position": [100, 50], "fill": "black"}"##)
    let turned = try render(layer, at: 0)
    #expect(turned.bytes == flat.bytes)
    let half = try render(
      layer, at: 0.5, timeline: ##"[{"at": 0, "animation": "linear(duration: 1)", "set": {"r": {"rotation3D": {"angle": 100}}}}]"##)
    let expected = try render(
      ##"{"type": "rect", "size": [100, 60], "position": [100, 50], "fill": "black", "rotation3D": {"angle": 50, "axis": [0, 1, 0]}}"##)
    #expect(half.bytes == expected.bytes)
  }

  @Test(
    arguments: [
      (##"{"type": "rect", "rotation3D": {"angle": 30, "axis": [0, 0, 0]}}"##, "the rotation3D axis [0, 0, 0] is no direction"),
      (##"{"type": "rect", "rotation3D": {"angle": 30}}"##, "rotation3D needs an \"axis\""),
      (##"{"type": "rect", "rotation3D": {"angle": 30, "axis": [0, 1]}}"##, "expected an axis [x, y, z], got 2 numbers"),
      (##"{"type": "rect", "rotation3D": {"angle": 30, "axis": [0, 1, 0], "perspective": -1}}"##, "-1 is out of range"),
    ])
  func badRotationsAreLocated(_ layer: String, _ message: String) {
    let text = ##"{"version": 1, "size": [200, 100], "layers": ["## + layer + "]}"
    do {
      _ = try SceneDecoder.decode(Array(text.utf8), file: "t.json", defaultName: "t")
      Issue.record("accepted")
    } catch {
      #expect(error.diagnostics.count == 1 && error.diagnostics[0].message.contains(message), "\(error)")
    }
  }

  @Test func turningALayerWithoutAnAxisIsLocated() {
    let text =
      ##"{"version": 1, "size": [200, 100], "layers": [{"id": "r", "type": "rect"}], "timeline": [{"at": 0, "set": {"r": {"rotation3D": {"angle": 90}}}}]}"##
    do {
      _ = try SceneDecoder.decode(Array(text.utf8), file: "t.json", defaultName: "t")
      Issue.record("accepted")
    } catch {
      #expect(
        error.diagnostics.map(\.message) == [
          ##"'r' gives no rotation3D axis, so an event cannot turn it: give the layer "rotation3D": {"axis": [0, 1, 0]}"##
        ])
      #expect(error.diagnostics.first?.path.description == "timeline[0].set.r.rotation3D")
    }
  }
}

/// A turned layer's group (opacity, shadow) is drawn whole before it is
/// turned: nothing is cut at its projected box or its flat box.
@Suite struct Rotation3DGroupTests {
  func ink(_ layer: String) throws -> Double {
    let text = ##"{"version": 1, "size": [200, 120], "scale": 1, "background": "white", "layers": ["## + layer + "]}"
    let p = try SceneRenderer(scene: try SceneDecoder.decode(Array(text.utf8), file: "t.json", defaultName: "t")).render(at: 0)
    var total = 0.0
    for y in 0..<120 { for x in 0..<200 { total += Double(255 - Int(p[x, y].r)) / 255 } }
    return total
  }

  /// At half opacity a turned rect has half the ink of an opaque one
  /// (within the 8-bit rounding of its pixels).
  @Test func opacityKeepsTheWholeLayer() throws {
    let rect = ##"{"type": "rect", "size": [100, 60], "position": [100, 60], "fill": "black", "rotation3D": {"angle": 70, "axis": [0, 1, 0]}"##
    let opaque = try ink(rect + "}"), half = try ink(rect + ##", "opacity": 0.5}"##)
    #expect(opaque > 20 && abs(half - opaque / 2) < 0.01 * opaque, "\(half) vs \(opaque)")
  }

  /// A shadow of σ 6 spreads past the flat box: turned by 1° the layer
  /// keeps its whole soft shadow, so its ink is the unturned layer's.
  @Test func shadowsSpreadPastTheFlatBox() throws {
    let base = ##"{"type": "rect", "size": [100, 60], "position": [100, 60], "fill": "black", "shadow": {"color": "black", "radius": 6}"##
    let flat = try ink(base + "}")
    let turned = try ink(base + ##", "rotation3D": {"angle": 1, "axis": [0, 1, 0]}}"##)
    #expect(abs(turned - flat) < 0.02 * flat, "\(turned) vs \(flat)")
  }
}
