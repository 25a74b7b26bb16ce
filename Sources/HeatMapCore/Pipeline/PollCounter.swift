/// Counts the work a loop has done since it last polled its control, and
/// polls once every `interval` units: a loop over millions of vertices
/// calls ``advance(by:)`` as it goes (a decrement and a branch per call),
/// so it honours a cancel within `interval` units of work however its
/// rings are cut, and may report its progress at each poll.
package struct PollCounter {
    private let control: ComputeControl
    private let interval: Int
    private var left: Int
    private let onPoll: ((Int) -> Void)?

    /// A counter that polls `control` every `interval` units (at least 1),
    /// first calling `onPoll` with the units counted since the last poll.
    package init(_ control: ComputeControl, every interval: Int, onPoll: ((Int) -> Void)? = nil) {
        self.control = control
        self.interval = max(1, interval)
        self.onPoll = onPoll
        left = self.interval
    }

    /// Counts `units` of work, polling `control` when the interval is used up.
    /// - Throws: `CancellationError` when the control is cancelled.
    @inline(__always) package mutating func advance(by units: Int = 1) throws {
        left &-= units
        if left <= 0 { try poll() }
    }

    /// Polls `control` now, counting nothing.
    /// - Throws: `CancellationError` when the control is cancelled.
    package func check() throws { try control.checkCancellation() }

    @inline(never) private mutating func poll() throws {
        let units = interval - left
        left = interval
        onPoll?(units)
        try control.checkCancellation()
    }
}
