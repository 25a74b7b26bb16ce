import HeatMapCore
import HeatMapDensity

extension FrameDensity {
    /// The most values of all frames held at once to find the shared
    /// thresholds' order statistics (16 MiB of keys); more passes over the
    /// frames narrow the candidates below it.
    static let thresholdCandidates = 1 << 21

    /// Thresholds shared by every frame: `spacing` over all frames' values
    /// together (a quantile of all frames' nodes, not of one frame's),
    /// exactly, in a few passes over the frames (each pass a running sum
    /// of the interval grids: O(frames × grid) time, two grids of memory
    /// plus at most ``thresholdCandidates`` values). The probability rule,
    /// which needs every value sorted, reads an even sample of at most
    /// ``thresholdCandidates`` of them instead.
    package func thresholds(spacing: LevelSpacing, levelCount: Int, control: ComputeControl) throws -> [Double] {
        let total = Double(max(nodes * schedule.frames.count, 1))
        var seen = 0
        let passes = ValuePasses { control, body in
            try self.forEachFrameValues(control: control) { _, values in
                try body(values)
                // Passes follow one another: the report goes on across them, below 1.
                seen += values.count
                control.report(.levels, min(0.99, Double(seen) / (4 * total)))
            }
        }
        let thresholds = try ThresholdResolver.thresholds(
            for: spacing, levelCount: levelCount, passes: passes,
            candidateLimit: FrameDensity.thresholdCandidates,
            sortedDescending: { try sampleSortedDescending(control: control) },
            floor: estimator == .density ? 0 : nil, control: control)
        control.report(.levels, 1)
        return thresholds
    }

    /// Every frame's values above 0, largest first, or an even sample of
    /// them (the exact extremes included) when there are more than
    /// ``thresholdCandidates``.
    private func sampleSortedDescending(control: ComputeControl) throws -> [Double] {
        let total = nodes * schedule.frames.count
        let stride = max(1, (total + FrameDensity.thresholdCandidates - 1) / FrameDensity.thresholdCandidates)
        var sample: [Double] = []
        sample.reserveCapacity(min(total, FrameDensity.thresholdCandidates) + 2)
        var lowest = Double.infinity, highest = -Double.infinity
        var position = 0
        try forEachFrameValues(control: control) { _, values in
            for v in values where v > 0 {
                lowest = min(lowest, v)
                highest = max(highest, v)
            }
            // The sample's phase runs on across frames, so every node is sampled in some frame.
            var i = (stride - position % stride) % stride
            while i < values.count {
                if values[i] > 0 { sample.append(values[i]) }
                i += stride
            }
            position += values.count
        }
        if stride > 1, lowest.isFinite {
            sample.append(lowest)
            sample.append(highest)
        }
        return try sample.withUnsafeBufferPointer {
            try OrderStatistics.sortedDescending($0, above: 0, control: control)
        }
    }
}
