import Foundation
import HeatMapCore

/// A uniform random sample of at most `capacity` points from a stream
/// (Li's Algorithm L: O(capacity · log(n / capacity)) random draws for n
/// points), with a fixed seed so the same stream gives the same sample.
/// Below `capacity` points it holds them all, so quantiles are exact.
struct PointReservoir: Sendable, Hashable {
    package let capacity: Int
    package private(set) var x: [Double] = []
    package private(set) var y: [Double] = []
    package private(set) var weight: [Double] = []
    /// Points offered so far.
    package private(set) var seen = 0
    private var rng: SplitMixGenerator
    private var w = 1.0
    /// Index (in `seen` order) of the next point to take once full.
    private var next = 0

    package init(capacity: Int, seed: UInt64 = 0x5EED_DE45_17E5) {
        self.capacity = max(capacity, 1)
        rng = SplitMixGenerator(seed: seed)
    }

    mutating func offer(x px: Double, y py: Double, weight pw: Double) {
        defer { seen += 1 }
        if x.count < capacity {
            x.append(px); y.append(py); weight.append(pw)
            if x.count == capacity {
                w = exp(log(rng.nextUnit()) / Double(capacity))
                scheduleNext()
            }
            return
        }
        guard seen == next else { return }
        let slot = Int(rng.next() % UInt64(capacity))
        x[slot] = px; y[slot] = py; weight[slot] = pw
        w *= exp(log(rng.nextUnit()) / Double(capacity))
        scheduleNext()
    }

    private mutating func scheduleNext() {
        // Skip ⌊log u / log(1 − w)⌋ points; a huge skip means "never".
        let skip = (log(rng.nextUnit()) / log1p(-w)).rounded(.down)
        next = seen + 1 + (skip.isFinite && skip < 1e15 ? Int(skip) : Int(1e15))
    }

    /// The weighted median of the sampled points' distances to `centre`:
    /// the smallest distance whose cumulative weight reaches half of Σw.
    /// nil when the sample has no weight.
    func medianDistance(to centre: PlanePoint) -> Double? {
        let distances = x.indices.map { i in
            ((x[i] - centre.x) * (x[i] - centre.x) + (y[i] - centre.y) * (y[i] - centre.y)).squareRoot()
        }
        let order = distances.indices.sorted { distances[$0] < distances[$1] }
        let total = weight.reduce(0, +)
        guard total > 0 else { return nil }
        var acc = 0.0
        for i in order {
            acc += weight[i]
            if acc >= 0.5 * total { return distances[i] }
        }
        return order.last.map { distances[$0] }
    }

    /// The weighted quantile q (0...1) of the sampled coordinates along x
    /// (or y): the smallest value whose cumulative weight reaches q · Σw.
    /// nil when the sample has no weight.
    package func quantile(_ q: Double, alongX: Bool) -> Double? {
        let values = alongX ? x : y
        let order = values.indices.sorted { values[$0] < values[$1] }
        let total = weight.reduce(0, +)
        guard total > 0 else { return nil }
        let target = q * total
        var acc = 0.0
        for i in order {
            acc += weight[i]
            if acc >= target { return values[i] }
        }
        return order.last.map { values[$0] }
    }
}
