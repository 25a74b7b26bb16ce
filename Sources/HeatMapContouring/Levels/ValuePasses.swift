import HeatMapCore

/// Values that can be passed over as often as asked, in the same order
/// each time: one grid's, or every frame's of a time series, which are
/// too many to hold at once.
///
/// The values come in ``parts`` that can be passed over each on its own,
/// on any core: a pass that keeps what it needs per part and merges the
/// parts in order gets what one pass over all the values in order gets.
/// One grid's values are cut into parts of about a million (the cut
/// depends on the count only, never on the cores); a series' frames are
/// one part.
struct ValuePasses {
    /// How many parts the values come in (at least 1).
    let parts: Int
    /// Hands part k's values out in blocks, in order, polling `control`
    /// between blocks.
    private let passPart: (Int, ComputeControl, (UnsafeBufferPointer<Double>) throws -> Void) throws -> Void

    /// Values in one part, handed out by `pass` in blocks.
    init(pass: @escaping (ComputeControl, (UnsafeBufferPointer<Double>) throws -> Void) throws -> Void) {
        parts = 1
        passPart = { _, control, body in try pass(control, body) }
    }

    /// Values per part of a buffer's values.
    static let partSize = 1 << 20

    /// Passes over `values` (valid while this is used),
    /// ``OrderStatistics/block`` values a block, in parts of about
    /// `partSize` (at most 64 parts: their merge stays small).
    init(_ values: UnsafeBufferPointer<Double>, partSize: Int = ValuePasses.partSize) {
        let wanted = max(partSize, 1)
        let parts = min(64, max(1, values.count / wanted + (values.count % wanted == 0 ? 0 : 1)))
        let size = (values.count + parts - 1) / parts
        self.parts = parts
        passPart = { k, control, body in
            var start = k * size
            let end = min(values.count, start + size)
            while start < end {
                try control.checkCancellation()
                let stop = min(start + OrderStatistics.block, end)
                try body(UnsafeBufferPointer(rebasing: values[start..<stop]))
                start = stop
            }
        }
    }

    /// Hands every value out in blocks, in order, polling `control` between blocks.
    func pass(_ control: ComputeControl, _ body: (UnsafeBufferPointer<Double>) throws -> Void) throws {
        for k in 0..<parts { try passPart(k, control, body) }
    }

    /// Hands part k's values out in blocks, in order.
    func pass(part k: Int, _ control: ComputeControl, _ body: (UnsafeBufferPointer<Double>) throws -> Void) throws {
        try passPart(k, control, body)
    }
}
