import Layout
import Primitives
import Testing

/// Expected values are worked out by hand in the comments (frame origin first,
/// then position = origin + anchor ⊙ size), not taken from the layout's output.
@Suite struct StackLayoutTests {
  // MARK: Helpers

  func leaf(_ w: Double, _ h: Double, anchor: Vector2 = Vector2(0.5, 0.5), participates: Bool = true) -> LayoutNode {
    LayoutNode(size: Vector2(w, h), anchor: anchor, participatesInLayout: participates)
  }

  func near(_ a: Vector2?, _ b: Vector2?, _ tolerance: Double = 1e-9) -> Bool {
    guard let a, let b else { return a == nil && b == nil }
    return abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
  }

  /// The children's positions, in order.
  func positions(_ r: LayoutResult) -> [Point?] { r.children.map(\.position) }

  func near(_ a: [Point?], _ b: [Point?]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { near($0, $1) }
  }

  // MARK: vstack

  @Test func vstackOfThreeRows() {
    // Height 44 + 8 + 44 + 8 + 44 = 148; width = widest = 100.
    // Row frames start at y = 0, 52, 104; centres at y = 22, 74, 126; x = 50.
    let r = LayoutNode.vstack(spacing: 8, [leaf(100, 44), leaf(100, 44), leaf(100, 44)]).layout()
    #expect(near(r.size, Vector2(100, 148)))
    #expect(near(positions(r), [Point(50, 22), Point(50, 74), Point(50, 126)]))
    #expect(r.position == nil)
    #expect(r.children[1].frame == Rect(x: 0, y: 52, width: 100, height: 44))
  }

  @Test func defaultSpacingIsEight() {
    // Same as above without giving spacing: 148 high.
    let r = LayoutNode.vstack([leaf(100, 44), leaf(100, 44), leaf(100, 44)]).layout()
    #expect(LayoutContainer.defaultSpacing == 8)
    #expect(near(r.size, Vector2(100, 148)))
  }

  @Test func vstackAlignments() {
    // Children 100×20, 60×30, 80×10, spacing 8: content 100 × (60 + 16) = 100×76.
    // Frames start at y = 0, 28, 66; centres y = 10, 43, 71.
    let children = [leaf(100, 20), leaf(60, 30), leaf(80, 10)]

    // Leading: every frame at x = 0 → centres x = 50, 30, 40.
    let l = LayoutNode.vstack(alignment: .leading, children).layout()
    #expect(near(l.size, Vector2(100, 76)))
    #expect(near(positions(l), [Point(50, 10), Point(30, 43), Point(40, 71)]))

    // Centre: frames at x = 0, 20, 10 → centres x = 50, 50, 50.
    let c = LayoutNode.vstack(alignment: .center, children).layout()
    #expect(near(positions(c), [Point(50, 10), Point(50, 43), Point(50, 71)]))

    // Trailing: frames at x = 100 − w = 0, 40, 20 → centres x = 50, 70, 60.
    let t = LayoutNode.vstack(alignment: .trailing, children).layout()
    #expect(near(t.size, Vector2(100, 76)))
    #expect(near(positions(t), [Point(50, 10), Point(70, 43), Point(60, 71)]))
  }

  @Test func vstackIgnoresVerticalHalfOfAlignment() {
    // .bottomLeading on a vstack acts as .leading (SwiftUI's VStack only takes
    // a HorizontalAlignment). Same numbers as the leading case above.
    let r = LayoutNode.vstack(alignment: .bottomLeading, [leaf(100, 20), leaf(60, 30)]).layout()
    #expect(near(positions(r), [Point(50, 10), Point(30, 43)]))
  }

  // MARK: hstack

  @Test func hstackAlignments() {
    // Children 40×40, 20×60, 30×10, spacing 10: content (90 + 20) × 60 = 110×60.
    // Frames start at x = 0, 50, 80; centres x = 20, 60, 95.
    let children = [leaf(40, 40), leaf(20, 60), leaf(30, 10)]

    // Top: frames at y = 0 → centres y = 20, 30, 5.
    let top = LayoutNode.hstack(spacing: 10, alignment: .top, children).layout()
    #expect(near(top.size, Vector2(110, 60)))
    #expect(near(positions(top), [Point(20, 20), Point(60, 30), Point(95, 5)]))

    // Centre: frames at y = 10, 0, 25 → centres y = 30.
    let mid = LayoutNode.hstack(spacing: 10, children).layout()
    #expect(near(positions(mid), [Point(20, 30), Point(60, 30), Point(95, 30)]))

    // Bottom: frames at y = 60 − h = 20, 0, 50 → centres y = 40, 30, 55.
    let bottom = LayoutNode.hstack(spacing: 10, alignment: .bottom, children).layout()
    #expect(near(bottom.size, Vector2(110, 60)))
    #expect(near(positions(bottom), [Point(20, 40), Point(60, 30), Point(95, 55)]))
  }

  // MARK: padding

  @Test func paddingAsOneNumber() {
    // Two 100×44 rows, spacing 8: content 100×96; padding 16 → 132×128.
    // Frames at (16, 16) and (16, 16 + 52 = 68); centres (66, 38) and (66, 90).
    let r = LayoutNode.vstack(padding: EdgeInsets(16), [leaf(100, 44), leaf(100, 44)]).layout()
    #expect(near(r.size, Vector2(132, 128)))
    #expect(near(positions(r), [Point(66, 38), Point(66, 90)]))
  }

  @Test func paddingAsFourValues() {
    // [top 10, leading 20, bottom 30, trailing 40]; hstack of 50×20 and 30×40,
    // spacing 5: content 85×40 → size (85 + 60) × (40 + 40) = 145×80.
    // Content box origin (20, 10). Child 1 frame (20, 10 + (40 − 20)/2 = 20) →
    // centre (45, 30); child 2 frame (20 + 55 = 75, 10) → centre (90, 30).
    let pad = EdgeInsets(top: 10, leading: 20, bottom: 30, trailing: 40)
    let r = LayoutNode.hstack(spacing: 5, padding: pad, [leaf(50, 20), leaf(30, 40)]).layout()
    #expect(near(r.size, Vector2(145, 80)))
    #expect(near(positions(r), [Point(45, 30), Point(90, 30)]))
    #expect(pad.horizontal == 60 && pad.vertical == 40)
  }

  // MARK: explicit size

  @Test func explicitSizeLargerThanContentCentresTheContent() {
    // vstack, leading, padding 10, size 300×200; rows 100×44 and 60×44, spacing 8.
    // Content 100×96, padded 120×116, centred: padded origin ((300 − 120)/2,
    // (200 − 116)/2) = (90, 42); content origin (100, 52).
    // Row 1 frame (100, 52) → centre (150, 74).
    // Row 2 frame (100, 52 + 52 = 104), leading within the content box →
    // centre (100 + 30, 104 + 22) = (130, 126).
    let r = LayoutNode.vstack(
      alignment: .leading, padding: EdgeInsets(10), size: Vector2(300, 200),
      [leaf(100, 44), leaf(60, 44)]
    ).layout()
    #expect(near(r.size, Vector2(300, 200)))
    #expect(near(positions(r), [Point(150, 74), Point(130, 126)]))
  }

  @Test func explicitSizeSmallerThanContentOverflowsEvenly() {
    // hstack of two 100×50 with spacing 0 in a 100×50 frame: content 200×50,
    // origin ((100 − 200)/2, 0) = (−50, 0). Frames at x = −50 and 50 →
    // centres (0, 25) and (100, 25).
    let r = LayoutNode.hstack(spacing: 0, size: Vector2(100, 50), [leaf(100, 50), leaf(100, 50)]).layout()
    #expect(near(r.size, Vector2(100, 50)))
    #expect(near(positions(r), [Point(0, 25), Point(100, 25)]))
  }

  // MARK: zstack

  @Test func zstackAlignments() {
    // Children 100×60 and 40×20: content 100×60. The big child fills the box,
    // so its centre is (50, 30) whatever the alignment.
    let children = [leaf(100, 60), leaf(40, 20)]
    func second(_ a: Alignment) -> Point? {
      let r = LayoutNode.zstack(alignment: a, children).layout()
      #expect(near(r.size, Vector2(100, 60)))
      #expect(near(r.children[0].position, Point(50, 30)))
      return r.children[1].position
    }
    // Small child frame origin = ((100 − 40)·h, (60 − 20)·v) = (60h, 40v); centre + (20, 10).
    #expect(near(second(.center), Point(50, 30)))  // (30, 20) + (20, 10)
    #expect(near(second(.topLeading), Point(20, 10)))  // (0, 0)
    #expect(near(second(.top), Point(50, 10)))  // (30, 0)
    #expect(near(second(.topTrailing), Point(80, 10)))  // (60, 0)
    #expect(near(second(.leading), Point(20, 30)))  // (0, 20)
    #expect(near(second(.trailing), Point(80, 30)))  // (60, 20)
    #expect(near(second(.bottomLeading), Point(20, 50)))  // (0, 40)
    #expect(near(second(.bottom), Point(50, 50)))  // (30, 40)
    #expect(near(second(.bottomTrailing), Point(80, 50)))  // (60, 40)
  }

  @Test func zstackWithPaddingAndExplicitSize() {
    // Padding 10: size 120×80, both children share the centre (60, 40).
    let padded = LayoutNode.zstack(padding: EdgeInsets(10), [leaf(100, 60), leaf(40, 20)]).layout()
    #expect(near(padded.size, Vector2(120, 80)))
    #expect(near(positions(padded), [Point(60, 40), Point(60, 40)]))

    // Size 200×100, topLeading: content 100×60 centred → origin (50, 20).
    // Big child centre (100, 50); small child frame (50, 20) → centre (70, 30).
    let framed = LayoutNode.zstack(alignment: .topLeading, size: Vector2(200, 100), [leaf(100, 60), leaf(40, 20)])
      .layout()
    #expect(near(framed.size, Vector2(200, 100)))
    #expect(near(positions(framed), [Point(100, 50), Point(70, 30)]))
  }

  @Test func zstackIgnoresSpacing() {
    let container = LayoutContainer(kind: .zstack, spacing: 50, children: [leaf(10, 10), leaf(20, 20)])
    let r = LayoutNode(container: container).layout()
    // 20×20; both centres at (10, 10).
    #expect(near(r.size, Vector2(20, 20)))
    #expect(near(positions(r), [Point(10, 10), Point(10, 10)]))
  }

  // MARK: nesting

  @Test func nestedStacksAreMeasuredBottomUp() {
    // Inner hstack (spacing 4, padding 2) of 30×20 and 40×30:
    //   content (70 + 4) × 30 = 74×30 → size 78×34.
    //   Child 1 frame (2, 2 + 5 = 7) → centre (17, 17); child 2 frame (36, 2) → centre (56, 17).
    // Outer vstack (spacing 8) of the inner stack and a 100×10 leaf:
    //   width 100, height 34 + 8 + 10 = 52.
    //   Inner frame ((100 − 78)/2 = 11, 0) → centre (50, 17); leaf frame (0, 42) → centre (50, 47).
    let inner = LayoutNode.hstack(spacing: 4, padding: EdgeInsets(2), [leaf(30, 20), leaf(40, 30)])
    #expect(near(inner.size, Vector2(78, 34)))
    let r = LayoutNode.vstack(spacing: 8, [inner, leaf(100, 10)]).layout()
    #expect(near(r.size, Vector2(100, 52)))
    #expect(near(positions(r), [Point(50, 17), Point(50, 47)]))
    #expect(near(r.children[0].size, Vector2(78, 34)))
    #expect(near(positions(r.children[0]), [Point(17, 17), Point(56, 17)]))
  }

  @Test func groupDoesNoLayoutButItsChildrenDo() {
    // A group keeps its children's own positions (nil) and has size zero by
    // default, yet a stack inside it is still laid out: vstack of two 10×10,
    // spacing 0 → 10×20, centres (5, 5) and (5, 15).
    let stack = LayoutNode.vstack(spacing: 0, [leaf(10, 10), leaf(10, 10)])
    let g = LayoutNode.group([leaf(50, 50), stack]).layout()
    #expect(near(g.size, .zero))
    #expect(near(positions(g), [nil, nil]))
    #expect(near(g.children[1].size, Vector2(10, 20)))
    #expect(near(positions(g.children[1]), [Point(5, 5), Point(5, 15)]))
    // With a size, a group has that size.
    #expect(near(LayoutNode.group(size: Vector2(30, 40), [leaf(1, 1)]).size, Vector2(30, 40)))
    // A group in a stack takes a slot of its own size: vstack of a zero-size
    // group and a 20×20 leaf → 20 × (0 + 8 + 20) = 20×28; group at (10, 0).
    let s = LayoutNode.vstack([LayoutNode.group([leaf(50, 50)]), leaf(20, 20)]).layout()
    #expect(near(s.size, Vector2(20, 28)))
    #expect(near(positions(s), [Point(10, 0), Point(10, 18)]))
  }

  // MARK: anchors

  @Test func positionIsWhereTheAnchorSits() {
    // Three 100×44 rows as in the first test: frames at y = 0, 52, 104.
    // Row 1 anchor (0.25, 1): (0 + 25, 0 + 44) = (25, 44).
    // Row 2 anchor (0, 0): its frame origin (0, 52).
    // Row 3 anchor (1, 1): (100, 104 + 44) = (100, 148).
    let r = LayoutNode.vstack([
      leaf(100, 44, anchor: Vector2(0.25, 1)),
      leaf(100, 44, anchor: Vector2(0, 0)),
      leaf(100, 44, anchor: Vector2(1, 1)),
    ]).layout()
    #expect(near(r.size, Vector2(100, 148)))
    #expect(near(positions(r), [Point(25, 44), Point(0, 52), Point(100, 148)]))
    // The frames are the same slots as with centred anchors.
    #expect(
      r.children.map(\.frame) == [
        Rect(x: 0, y: 0, width: 100, height: 44),
        Rect(x: 0, y: 52, width: 100, height: 44),
        Rect(x: 0, y: 104, width: 100, height: 44),
      ])
  }

  @Test func anchorOfANestedStack() {
    // Inner vstack 40×20 (one leaf) with anchor (0, 0) inside an hstack with a
    // 10×60 leaf, spacing 8: size (40 + 8 + 10) × 60 = 58×60. The inner frame
    // is (0, 20), so its position is (0, 20). The inner leaf's position, in the
    // inner stack's own space, is (20, 10) whatever the inner stack's anchor.
    let inner = LayoutNode.vstack(anchor: Vector2(0, 0), [leaf(40, 20)])
    let r = LayoutNode.hstack([inner, leaf(10, 60)]).layout()
    #expect(near(r.size, Vector2(58, 60)))
    #expect(near(positions(r), [Point(0, 20), Point(53, 30)]))
    #expect(near(positions(r.children[0]), [Point(20, 10)]))
  }

  // MARK: zero-size and non-participating children

  @Test func zeroSizeChildTakesASlotAndSpacing() {
    // 100×44, 0×0, 100×44, spacing 8: height 44 + 8 + 0 + 8 + 44 = 104.
    // Frames at y = 0, 52, 60. The empty child is centred across: x = 50.
    let r = LayoutNode.vstack([leaf(100, 44), leaf(0, 0), leaf(100, 44)]).layout()
    #expect(near(r.size, Vector2(100, 104)))
    #expect(near(positions(r), [Point(50, 22), Point(50, 52), Point(50, 82)]))
  }

  @Test func nonParticipatingChildIsSkipped() {
    // The middle row takes no slot and no spacing: 44 + 8 + 44 = 96.
    let r = LayoutNode.vstack([leaf(100, 44), leaf(300, 44, participates: false), leaf(100, 44)]).layout()
    #expect(near(r.size, Vector2(100, 96)))  // its width 300 does not count either
    #expect(near(positions(r), [Point(50, 22), nil, Point(50, 74)]))
    #expect(near(r.children[1].size, Vector2(300, 44)))
  }

  @Test func nonParticipatingStackIsStillLaidOutInside() {
    // A removed hstack (two 10×10, spacing 0 → 20×10) keeps its own layout so it
    // can be drawn during its transition; it gets no position in the parent.
    let removed = LayoutNode.hstack(spacing: 0, participatesInLayout: false, [leaf(10, 10), leaf(10, 10)])
    let r = LayoutNode.vstack([removed, leaf(50, 20)]).layout()
    #expect(near(r.size, Vector2(50, 20)))
    #expect(r.children[0].position == nil)
    #expect(near(r.children[0].size, Vector2(20, 10)))
    #expect(near(positions(r.children[0]), [Point(5, 5), Point(15, 5)]))
    #expect(near(r.children[1].position, Point(25, 10)))
  }

  @Test func stackWithNoParticipatingChildrenIsItsPadding() {
    // Nothing to lay out: content 0×0, padding [1, 2, 3, 4] → 6×4.
    let r = LayoutNode.hstack(
      padding: EdgeInsets(top: 1, leading: 2, bottom: 3, trailing: 4),
      [leaf(10, 10, participates: false)]
    ).layout()
    #expect(near(r.size, Vector2(6, 4)))
    #expect(near(LayoutNode.vstack([]).size, .zero))
    #expect(near(LayoutNode.zstack([]).size, .zero))
  }

  // MARK: spacing

  @Test func zeroSpacing() {
    // 3 × 44 = 132; frames at y = 0, 44, 88 → centres 22, 66, 110.
    let r = LayoutNode.vstack(spacing: 0, [leaf(100, 44), leaf(100, 44), leaf(100, 44)]).layout()
    #expect(near(r.size, Vector2(100, 132)))
    #expect(near(positions(r), [Point(50, 22), Point(50, 66), Point(50, 110)]))
  }

  @Test func negativeSpacingOverlaps() {
    // Spacing −10: 3 × 44 − 20 = 112; frames at y = 0, 34, 68 → centres 22, 56, 90.
    let r = LayoutNode.vstack(spacing: -10, [leaf(100, 44), leaf(100, 44), leaf(100, 44)]).layout()
    #expect(near(r.size, Vector2(100, 112)))
    #expect(near(positions(r), [Point(50, 22), Point(50, 56), Point(50, 90)]))

    // hstack, spacing −5: widths 20 + 30 − 5 = 45; frames at x = 0, 15 → centres 10, 30.
    let h = LayoutNode.hstack(spacing: -5, [leaf(20, 10), leaf(30, 10)]).layout()
    #expect(near(h.size, Vector2(45, 10)))
    #expect(near(positions(h), [Point(10, 5), Point(30, 5)]))
  }

  @Test func spacingBeyondTheContentClampsTheSizeToZero() {
    // Two 100×44 with spacing −100: 88 − 100 = −12 → height 0. The second frame
    // starts at 44 − 100 = −56, centre −34.
    let r = LayoutNode.vstack(spacing: -100, [leaf(100, 44), leaf(100, 44)]).layout()
    #expect(near(r.size, Vector2(100, 0)))
    #expect(near(positions(r), [Point(50, 22), Point(50, -34)]))
  }

  // MARK: alignment names

  @Test func alignmentNames() {
    let names = [
      "topLeading", "top", "topTrailing", "leading", "center", "trailing", "bottomLeading", "bottom",
      "bottomTrailing",
    ]
    for name in names {
      #expect(Alignment(named: name)?.name == name)
    }
    #expect(Alignment(named: "leading") == .leading)
    #expect(Alignment(named: "bottom") == Alignment(horizontal: .center, vertical: .bottom))
    #expect(Alignment(named: "middle") == nil)
    #expect(HorizontalAlignment(rawValue: "trailing") == .trailing)
    #expect(VerticalAlignment(rawValue: "top") == .top)
    #expect(HorizontalAlignment(rawValue: "top") == nil)
    #expect(Alignment.bottomTrailing.unitPoint == Vector2(1, 1))
    #expect(Alignment.top.unitPoint == Vector2(0.5, 0))
  }
}
