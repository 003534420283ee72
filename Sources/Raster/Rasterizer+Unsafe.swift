import Primitives
import Synchronization

// The coverage rasterizer's accumulation and scanning, on raw memory.
// Safe twins: `Rasterizer.referenceExactArea(_:width:height:)` (each pixel's
// area of the polygon, by clipping) and
// `Rasterizer.referenceSupersampled(_:rule:width:height:)` (16 × 16 samples
// per pixel) in Rasterizer.swift; RasterizerTests compares them on random
// polygons.

extension Rasterizer {
  /// The coverage of `polylines` (each implicitly closed) over the pixels
  /// of `clip`, or nil when nothing is covered.
  public static func coverage(of polylines: [Polyline], rule: FillRule, clip: PixelRect) -> CoverageMask? {
    let accumulator = Accumulator()
    guard accumulator.begin(polylines, clip: clip) else { return nil }
    let bounds = accumulator.bounds
    var out = [UInt8](repeating: 0, count: bounds.width * bounds.height)
    // (Each row is written whole by coverageRow.)
    out.withUnsafeMutableBufferPointer { buffer in
      for row in 0..<bounds.height {
        accumulator.coverageRow(row, rule: rule, into: buffer.baseAddress! + row * bounds.width)
      }
    }
    return CoverageMask(bounds: bounds, coverage: out)
  }

  /// Streams the coverage of `polylines` as runs of covered pixels: for
  /// each run, its device row, first device column, length, and either one
  /// coverage for the whole run (`constant`) or per-pixel coverage in
  /// `coverage` (writable, for a clip to multiply into). Rows are visited
  /// top to bottom; uncovered stretches are skipped without being looked at.
  @discardableResult
  static func scan(
    _ polylines: [Polyline], rule: FillRule, clip: PixelRect, accumulator: Accumulator,
    _ body: (_ y: Int, _ x: Int, _ count: Int, _ constant: UInt8?, _ coverage: UnsafeMutablePointer<UInt8>) -> Void
  ) -> PixelRect? {
    guard accumulator.begin(polylines, clip: clip) else { return nil }
    let bounds = accumulator.bounds
    let out = accumulator.row
    for r in 0..<bounds.height {
      accumulator.scanRow(r, rule: rule, into: out) { start, end, constant in
        body(bounds.y0 + r, bounds.x0 + start, end - start, constant, out + start)
      }
    }
    return bounds
  }
}

/// The signed-area accumulation buffer: a dense float per pixel of a fill's
/// bounds plus two guard columns, and a bit per 8-pixel chunk of each row
/// that an edge touched (sparse scanlines: between touched chunks the
/// coverage is constant). Reading a row zeroes it, so the memory is reused
/// from fill to fill without clearing.
///
/// The buffers are raw memory owned by the accumulator (freed in `deinit`):
/// they are touched for every pixel of every fill, where array uniqueness
/// and exclusivity checks would cost a fifth of the time.
///
/// Its state is read for every edge and every row: without dynamic
/// exclusivity checks (`@exclusivity(unchecked)`, 3% of `render --null` on
/// Benchmarks/Scenes/moving-40-1080p.json), which is sound because one
/// accumulator belongs to one tile renderer on one thread, and its
/// properties go inout only to `ensure`, which does not reach the
/// accumulator.
final class Accumulator: @unchecked Sendable {
  static let chunkShift = 3  // 8 pixels per chunk

  /// Accumulators between frames, at most `spareLimit`: a frame's tiles
  /// take one and give it back, so its buffers (as large as a tile, left
  /// zeroed by every fill) are allocated and cleared once per thread, not
  /// once per frame. (Sendable unchecked: an accumulator has one user at a
  /// time, as it passes whole through this list.)
  private static let spare = Mutex<[Accumulator]>([])
  static let spareLimit = 16

  /// An accumulator no one else is using.
  static func borrow() -> Accumulator { spare.withLock { $0.popLast() } ?? Accumulator() }

  /// Gives back an accumulator from `borrow` (zeroed, as every fill leaves it).
  static func giveBack(_ accumulator: Accumulator) {
    spare.withLock { if $0.count < spareLimit { $0.append(accumulator) } }
  }
  @exclusivity(unchecked) private(set) var bounds = PixelRect(x0: 0, y0: 0, x1: 0, y1: 0)
  @exclusivity(unchecked) private(set) var stride = 0
  @exclusivity(unchecked) private(set) var wordsPerRow = 0
  @exclusivity(unchecked) private(set) var cells = UnsafeMutablePointer<Float>.allocate(capacity: 0)
  @exclusivity(unchecked) private var cellCapacity = 0
  @exclusivity(unchecked) private(set) var touched = UnsafeMutablePointer<UInt64>.allocate(capacity: 0)
  @exclusivity(unchecked) private var touchedCapacity = 0
  /// One row of 8-bit coverage, for streaming.
  @exclusivity(unchecked) private(set) var row = UnsafeMutablePointer<UInt8>.allocate(capacity: 0)
  @exclusivity(unchecked) private var rowCapacity = 0

  init() {}

  deinit {
    cells.deallocate()
    touched.deallocate()
    row.deallocate()
  }

  /// Zeroed memory for at least `count` elements, reusing `pointer` when it is large enough.
  private static func ensure<T>(_ pointer: inout UnsafeMutablePointer<T>, _ capacity: inout Int, _ count: Int, zero: T) {
    guard capacity < count else { return }
    pointer.deallocate()
    pointer = .allocate(capacity: count)
    pointer.initialize(repeating: zero, count: count)
    capacity = count
  }

  /// Prepares for `polylines` within `clip` and deposits their edges;
  /// false when they cover no pixel of it.
  func begin(_ polylines: [Polyline], clip: PixelRect) -> Bool {
    let box = polylines.fillBounds
    guard !box.isNull else { return false }
    let area = PixelRect(covering: box).intersection(clip)
    guard !area.isEmpty else { return false }
    bounds = area
    stride = area.width + 2
    let needed = stride * area.height
    Self.ensure(&cells, &cellCapacity, needed, zero: 0)
    let chunks = (stride + (1 << Self.chunkShift) - 1) >> Self.chunkShift
    wordsPerRow = (chunks + 63) >> 6
    Self.ensure(&touched, &touchedCapacity, wordsPerRow * area.height, zero: 0)
    Self.ensure(&row, &rowCapacity, area.width, zero: 0)
    // Lines wholly above or below the bounds deposit nothing (the test
    // deposit makes, on the same numbers); they are passed over here
    // without being split at the vertical edges first.
    let top = Double(area.y0), height = Double(area.height)
    for line in polylines where line.points.count > 1 {
      line.points.withUnsafeBufferPointer { points in
        var previous = points[points.count - 1]
        for p in points {
          if (previous.y - top > 0 || p.y - top > 0) && (previous.y - top < height || p.y - top < height) {
            addLine(previous, p)
          }
          previous = p
        }
      }
    }
    return true
  }

  /// Adds the line from `a` to `b` (device pixels), clipped to the bounds:
  /// parts left of them become vertical lines on their left edge (they still
  /// wind the pixels to their right); parts right of them are dropped; rows
  /// outside are skipped.
  func addLine(_ a: Point, _ b: Point) {
    if a.y == b.y { return }
    let left = Double(bounds.x0), right = Double(bounds.x1)
    // Split at the vertical clip edges.
    if (a.x < left) != (b.x < left) && a.x != left && b.x != left {
      let t = (left - a.x) / (b.x - a.x)
      let m = Point(left, a.y + t * (b.y - a.y))
      addLine(a, m); addLine(m, b)
      return
    }
    if (a.x > right) != (b.x > right) && a.x != right && b.x != right {
      let t = (right - a.x) / (b.x - a.x)
      let m = Point(right, a.y + t * (b.y - a.y))
      addLine(a, m); addLine(m, b)
      return
    }
    if a.x >= right && b.x >= right { return }
    let ax = max(a.x, left), bx = max(b.x, left)
    deposit(x0: ax - left, y0: a.y - Double(bounds.y0), x1: bx - left, y1: b.y - Double(bounds.y0))
  }

  /// font-rs's line accumulation in bounds-relative coordinates, 0 ≤ x ≤ width.
  private func deposit(x0 fx0: Double, y0 fy0: Double, x1 fx1: Double, y1 fy1: Double) {
    let direction: Double = fy0 < fy1 ? 1 : -1
    let (x0, y0, x1, y1) = fy0 < fy1 ? (fx0, fy0, fx1, fy1) : (fx1, fy1, fx0, fy0)
    let height = Double(bounds.height)
    let top = max(y0, 0), bottom = min(y1, height)
    guard top < bottom else { return }
    let dxdy = (x1 - x0) / (y1 - y0)
    // An edge of subnormal height (y1 − y0 ≈ 1e-310) has an infinite slope
    // and covers nothing.
    guard dxdy.isFinite else { return }
    let maxX = Double(bounds.width)
    var x = x0 + (top - y0) * dxdy
    let firstRow = Int(flooring: top)
    let lastRow = Int(ceiling: bottom)
    let stride = self.stride
    let words = wordsPerRow
    let shift = Self.chunkShift
    let marks = touched
    let cellsOfRows = cells
    do {
      for row in firstRow..<lastRow {
        let rowStart = row * stride
        let rowTop = Double(row)
        let dy = min(rowTop + 1, bottom) - max(rowTop, top)
        let xNext = x + dxdy * dy
        let d = Float(dy * direction)
        // Interpolation can stray a rounding error outside 0…width: hold it in.
        let (xa, xb) = x < xNext ? (max(x, 0), min(xNext, maxX)) : (max(xNext, 0), min(x, maxX))
        let xaIndex = Int(flooring: xa), xbIndex = Int(ceiling: xb)
        let xaFloor = Double(xaIndex), xbCeil = Double(xbIndex)
        // Mark the chunks this row's deposits land in (up to xb + 1).
        let rowMarks = marks + row * words
        var chunk = xaIndex >> shift
        let lastChunk = (max(xbIndex, xaIndex + 1)) >> shift
        while chunk <= lastChunk {
          rowMarks[chunk >> 6] |= 1 &<< UInt64(chunk & 63)
          chunk += 1
        }
        if xbIndex <= xaIndex + 1 {
          // Within one pixel column: split by the mean x.
          let xmf = Float(0.5 * (x + xNext) - xaFloor)
          cellsOfRows[rowStart + xaIndex] += d - d * xmf
          cellsOfRows[rowStart + xaIndex + 1] += d * xmf
        } else {
          let s = Float(1 / (xb - xa))
          let xaFrac = Float(xa - xaFloor)
          let a0 = 0.5 * s * (1 - xaFrac) * (1 - xaFrac)
          let xbFrac = Float(xb - xbCeil + 1)
          let am = 0.5 * s * xbFrac * xbFrac
          cellsOfRows[rowStart + xaIndex] += d * a0
          if xbIndex == xaIndex + 2 {
            cellsOfRows[rowStart + xaIndex + 1] += d * (1 - a0 - am)
          } else {
            let a1 = s * (1.5 - xaFrac)
            cellsOfRows[rowStart + xaIndex + 1] += d * (a1 - a0)
            var i = xaIndex + 2
            while i < xbIndex - 1 {
              cellsOfRows[rowStart + i] += d * s
              i += 1
            }
            let a2 = a1 + Float(xbIndex - xaIndex - 3) * s
            cellsOfRows[rowStart + xbIndex - 1] += d * (1 - a2 - am)
          }
          cellsOfRows[rowStart + xbIndex] += d * am
        }
        x = xNext
      }
    }
  }

  /// The first chunk from `start` (up to `limit`) whose mark is `touched`,
  /// or `limit`: a word of marks at a time.
  @inline(__always)
  static func firstChunk(from start: Int, touched: Bool, below limit: Int, in marks: UnsafeMutablePointer<UInt64>) -> Int {
    var c = start
    while c < limit {
      let w = c >> 6
      let word = (touched ? marks[w] : ~marks[w]) & (~0 &<< UInt64(c & 63))
      if word != 0 { return min((w << 6) + word.trailingZeroBitCount, limit) }
      c = (w + 1) << 6
    }
    return limit
  }

  /// Coverage under the fill rule for an accumulated value.
  @inline(__always)
  static func coverage(_ sum: Float, _ rule: FillRule) -> UInt8 {
    var v = abs(sum)
    if rule == .nonZero {
      v = min(v, 1)
    } else {
      v = v - 2 * (v * 0.5).rounded(.down)
      if v > 1 { v = 2 - v }
    }
    return UInt8(v * 255 + 0.5)
  }

  /// `coverage(_:_:)` under the non-zero rule for eight sums, in vector
  /// lanes: the same float operations, and the truncation of c = min(|s|,
  /// 1)·255 + 0.5 (0.5 ≤ c ≤ 255.5) done without a conversion instruction
  /// SSE2 lacks: c + 2²³ rounds c to the nearest integer r in the low
  /// bits, and r − 1 is taken where r > c, which is ⌊c⌋ exactly.
  @inline(__always)
  static func nonZeroCoverage(_ sums: SIMD8<Float>) -> SIMD8<UInt8> {
    let magnitude = unsafeBitCast(unsafeBitCast(sums, to: SIMD8<UInt32>.self) & 0x7FFF_FFFF, to: SIMD8<Float>.self)
    let c = magnitude.replacing(with: 1, where: magnitude .> 1) * 255 + 0.5
    let shifted = c + 8_388_608
    let rounded = shifted - 8_388_608
    let integer = unsafeBitCast(shifted, to: SIMD8<UInt32>.self) & 0x7F_FFFF
    let down = unsafeBitCast(SIMD8<Int32>(repeating: 0).replacing(with: 1, where: rounded .> c), to: SIMD8<UInt32>.self)
    return SIMD8<UInt8>(truncatingIfNeeded: integer &- down)
  }

  /// The coverage of row `r` (relative to the bounds), reported as runs
  /// `[start, end)`: runs over chunks an edge touched carry per-pixel
  /// coverage (written to `out`), runs between them one constant value
  /// (nil means per-pixel). Uncovered stretches are not reported. Zeroes
  /// the row's cells and marks for the next fill.
  func scanRow(_ r: Int, rule: FillRule, into out: UnsafeMutablePointer<UInt8>, _ emit: (Int, Int, UInt8?) -> Void) {
    let w = bounds.width
    let chunkSize = 1 << Self.chunkShift
    let chunks = (w + chunkSize - 1) >> Self.chunkShift
    var sum: Float = 0
    do {
      do {
        let rowCells = cells + r * stride
        let rowMarks = touched + r * wordsPerRow
        var chunk = 0
        while chunk < chunks {
          let x0 = chunk << Self.chunkShift
          if rowMarks[chunk >> 6] & (1 &<< UInt64(chunk & 63)) != 0 {
            // A run of touched chunks, summed pixel by pixel.
            let end = Self.firstChunk(from: chunk + 1, touched: false, below: chunks, in: rowMarks)
            let x1 = min(end << Self.chunkShift, w)
            if rule == .nonZero {
              // The running sums in place (in order: the same floats as
              // one pixel at a time), then their coverage eight at a time.
              for x in x0..<x1 {
                sum += rowCells[x]
                rowCells[x] = sum
              }
              var x = x0
              while x + 8 <= x1 {
                let sums = UnsafeRawPointer(rowCells + x).loadUnaligned(as: SIMD8<Float>.self)
                UnsafeMutableRawPointer(out + x).storeBytes(of: Self.nonZeroCoverage(sums), as: SIMD8<UInt8>.self)
                UnsafeMutableRawPointer(rowCells + x).storeBytes(of: .zero, as: SIMD8<Float>.self)
                x += 8
              }
              while x < x1 {
                out[x] = Self.coverage(rowCells[x], rule)
                rowCells[x] = 0
                x += 1
              }
            } else {
              for x in x0..<x1 {
                sum += rowCells[x]
                rowCells[x] = 0
                out[x] = Self.coverage(sum, rule)
              }
            }
            emit(x0, x1, nil)
            chunk = end
          } else {
            // Untouched chunks up to the next touched one: one value.
            let end = Self.firstChunk(from: chunk + 1, touched: true, below: chunks, in: rowMarks)
            let value = Self.coverage(sum, rule)
            if value != 0 { emit(x0, min(end << Self.chunkShift, w), value) }
            chunk = end
          }
        }
        // The guard columns and the marks, for the next fill.
        rowCells[w] = 0
        rowCells[w + 1] = 0
        for i in 0..<wordsPerRow { rowMarks[i] = 0 }
      }
    }
  }

  /// Row `r`'s coverage for every column (0 outside the runs).
  func coverageRow(_ r: Int, rule: FillRule, into out: UnsafeMutablePointer<UInt8>) {
    out.update(repeating: 0, count: bounds.width)
    scanRow(r, rule: rule, into: out) { start, end, constant in
      if let constant { (out + start).update(repeating: constant, count: end - start) }
    }
  }
}
