import HeatMapCore

/// Values that can be passed over as often as asked, in the same order
/// each time: one grid's, or every frame's of a time series, which are
/// too many to hold at once.
struct ValuePasses {
    /// Hands every value out in blocks, polling `control` between blocks.
    let pass: (ComputeControl, (UnsafeBufferPointer<Double>) throws -> Void) throws -> Void

    /// Passes over `pass`'s blocks.
    init(pass: @escaping (ComputeControl, (UnsafeBufferPointer<Double>) throws -> Void) throws -> Void) {
        self.pass = pass
    }

    /// Passes over `values` (valid while this is used), ``OrderStatistics/block`` values a block.
    init(_ values: UnsafeBufferPointer<Double>) {
        pass = { control, body in
            var start = 0
            while start < values.count {
                try control.checkCancellation()
                let end = min(start + OrderStatistics.block, values.count)
                try body(UnsafeBufferPointer(rebasing: values[start..<end]))
                start = end
            }
        }
    }
}
