import HeatMapCore
import HeatMapDensity

extension FrameDensity {
    /// The most values the shared thresholds are computed from: beyond it,
    /// an even sample of every frame's nodes (plus the exact extremes).
    static let thresholdSample = 1 << 21

    /// Thresholds shared by every frame: `spacing` over all frames' values
    /// together (a quantile of all frames' nodes, not of one frame's). One
    /// pass over the frames.
    package func thresholds(spacing: LevelSpacing, levelCount: Int, control: ComputeControl) throws -> [Double] {
        let total = nodes * schedule.frames.count
        let stride = max(1, (total + FrameDensity.thresholdSample - 1) / FrameDensity.thresholdSample)
        var sample: [Double] = []
        sample.reserveCapacity(min(total, FrameDensity.thresholdSample) + 2)
        var lowest = Double.infinity, highest = -Double.infinity
        var position = 0
        try forEachFrame(control: control) { _, grid in
            for v in grid.values where !v.isNaN {
                lowest = min(lowest, v)
                highest = max(highest, v)
            }
            // The sample's phase runs on across frames, so every node is sampled in some frame.
            var i = (stride - position % stride) % stride
            while i < grid.values.count {
                sample.append(grid.values[i])
                i += stride
            }
            position += grid.values.count
            control.report(.levels, Double(position) / Double(max(total, 1)))
        }
        if stride > 1, lowest.isFinite {
            sample.append(lowest)
            sample.append(highest)
        }
        return try ThresholdResolver.thresholds(
            for: spacing, levelCount: levelCount, values: sample, floor: 0,
            control: control)
    }
}
