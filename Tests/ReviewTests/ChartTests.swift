import Primitives
import Raster
import Render
import SceneModel
import TestSupport
import Testing

@testable import Review

/// A source that is only its sampled properties: one layer whose `x` moves
/// linearly from 0 to 100 over two seconds (velocity 50 per second), and a
/// colour that has no numbers to chart.
let sampledOnly = TestSource(
  name: "sampled", duration: 2, size: Vector2(10, 10),
  sampledProperties: [
    SampledProperty(
      layer: "card", property: "position", unit: "pt",
      marks: [ChartMark(kind: .event, time: 0), ChartMark(kind: .settled, time: 2), ChartMark(kind: .event, time: 5)]
    ) { t in
      let x = 50 * min(2, max(0, t))
      return (value: [("x", x), ("y", 7)], velocity: [("x", t < 2 ? 50 : 0), ("y", 0)])
    },
    SampledProperty(layer: "card", property: "fill", unit: "", marks: []) { _ in (value: nil, velocity: nil) },
  ])

@Suite struct ChartTests {
  @Test func chartDataSamplesWhatTheSourceSays() {
    let data = ChartData(source: sampledOnly, from: 0, to: 2)
    // The colour without numbers is left out; position has x and y.
    #expect(data.groups.count == 1)
    let group = data.groups[0]
    #expect(group.title == "card · position" && group.unit == "pt")
    #expect(group.series.map(\.name) == ["position.x", "position.y"])
    // At least 240 samples a second, both ends included.
    let x = group.series[0].samples
    #expect(x.count == 481)
    #expect(x.first!.t == 0 && x.last!.t == 2)
    for s in x { #expect(abs(s.value - 50 * s.t) < 1e-9) }
    #expect(x[100].velocity == 50)
    // Marks outside the charted range are dropped.
    #expect(group.marks.map(\.time) == [0, 2])
  }

  @Test func aSelectionKeepsComponents() {
    let data = ChartData(source: sampledOnly, from: 0, to: 2)
    #expect(data.selecting(ChartData.Selection(properties: ["position.y"])).groups[0].series.map(\.name) == ["position.y"])
    #expect(data.selecting(ChartData.Selection(layers: ["other"])).groups.isEmpty)
  }

  @Test func theTimeAxisMapsTheRangeOntoThePlot() {
    // A measure that gives every character 6 points: no fonts involved.
    let chart = Chart(ChartData(source: sampledOnly, from: 0, to: 2), measure: { text, size, _ in Double(text.count) * size / 2 })
    let plot = chart.layout.plot
    #expect(plot.size.x == ChartStyle.width - ChartStyle.marginLeft - ChartStyle.marginRight)
    #expect(chart.layout.x(0) == plot.origin.x)
    #expect(abs(chart.layout.x(2) - (plot.origin.x + plot.size.x)) < 1e-9)
    #expect(abs(chart.layout.x(1) - (plot.origin.x + plot.size.x / 2)) < 1e-9)
    // Ticks at round steps within the range.
    #expect(chart.layout.timeTicks.first == 0 && chart.layout.timeTicks.last! <= 2)
    #expect(chart.layout.timeStep == Ticks.step(span: 2, target: max(3, Int(plot.size.x / 80))))
    // The value panel's range holds 0 … 100 with headroom.
    let value = chart.layout.groups[0].value
    #expect(value.range.lo <= 0 && value.range.hi >= 100)
  }
}
