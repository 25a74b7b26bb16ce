import Foundation
import HeatMapCore

/// How points with times are cut into frames (docs/time.md): frames start
/// at ``from`` (default: the first point's time floored to the step's
/// unit) and follow each other by ``step`` until the last point's time (or
/// until ``to``); frame k holds the points with start_k ≤ t < end_k, its
/// end ``window`` after its start, both counted from the first start (a
/// calendar step from a month's last day clamps each to its month's end
/// once, so frames tile time), and from the first frame's start with
/// ``cumulative``.
public struct TimeFrameOptions: Sendable, Hashable {
    /// Time between frame starts.
    public var step: TimeStep
    /// Width of each frame's window; nil is the step (frames tile time).
    /// Wider than the step gives a sliding window.
    public var window: TimeStep?
    /// Each frame holds every point from the first frame's start to its own end.
    public var cumulative: Bool
    /// The first frame's start (seconds since the epoch); nil: the first point's time floored.
    public var from: Double?
    /// Frames start before this time (seconds since the epoch); nil: until the last point.
    public var to: Double?

    /// The most frames a schedule may have.
    public static let maximumFrames = 10_000

    /// Creates frame options.
    public init(
        step: TimeStep, window: TimeStep? = nil, cumulative: Bool = false, from: Double? = nil,
        to: Double? = nil
    ) {
        self.step = step
        self.window = window
        self.cumulative = cumulative
        self.from = from
        self.to = to
    }

    /// Throws unless the step and the window are each 1 to 100 000 units
    /// (as ``TimeStep/init(parsing:)`` reads them) and `from` and `to` are
    /// finite; every framed computation asks first.
    /// - Throws: ``HeatMapError/invalidConfiguration(_:)`` naming the option.
    public func validate() throws {
        for (name, step) in [("step", step), ("window", window)] {
            guard let step else { continue }
            guard step.count >= 1 else {
                throw HeatMapError.invalidConfiguration(
                    "frame \(name) \(step): no time at all (a step or window is at least 1\(step.unit.rawValue))")
            }
            guard step.count <= TimeStep.longest else {
                throw HeatMapError.invalidConfiguration(
                    "frame \(name) \(step): too long (at most \(TimeStep.longest)\(step.unit.rawValue))")
            }
        }
        for (name, time) in [("from", from), ("to", to)] {
            guard let time, !time.isFinite else { continue }
            throw HeatMapError.invalidConfiguration(
                "frame range \(name) is \(time), not a time: expected seconds since the epoch")
        }
    }
}

/// One frame's time span: it holds the points with start ≤ t < end.
public struct TimeFrame: Sendable, Hashable {
    /// 0-based position in the schedule.
    public var index: Int
    /// Where the frame's window starts (seconds since the epoch).
    public var start: Double
    /// Where it ends, excluded (seconds since the epoch).
    public var end: Double

    /// Creates a frame.
    public init(index: Int, start: Double, end: Double) {
        self.index = index
        self.start = start
        self.end = end
    }

    /// Whether the frame holds time `t`.
    public func contains(_ t: Double) -> Bool { t >= start && t < end }
}

/// The frames of a set of times, and the elementary intervals they are
/// made of: the span from the first start to the last end, cut at every
/// frame's start and end. Each point falls in at most one interval, and
/// each frame is a run of consecutive intervals, so a frame's density is
/// the sum of its intervals' densities (the density is linear in the
/// points): a point is deposited once, however many frames hold it.
package struct FrameSchedule: Sendable, Hashable {
    /// The frames, in time order.
    package let frames: [TimeFrame]
    /// Interval edges, ascending: interval j is [edges[j], edges[j + 1]).
    package let edges: [Double]
    /// For each frame, the intervals it holds (a run of interval indexes).
    package let runs: [Range<Int>]
    /// Whether a frame holds interval j (not so between frames whose
    /// windows are shorter than their step).
    private let framed: [Bool]

    /// The number of elementary intervals.
    var intervalCount: Int { max(edges.count - 1, 0) }

    /// Whether some time between the first frame's start and the last
    /// one's end is in no frame (windows shorter than their step).
    package var hasGaps: Bool { framed.contains(false) }

    /// The schedule of `options` for points whose times span
    /// `earliest...latest`.
    /// - Throws: ``HeatMapError/invalidConfiguration(_:)`` for an empty
    ///   frame range or more than ``TimeFrameOptions/maximumFrames`` frames.
    package init(_ options: TimeFrameOptions, earliest: Double, latest: Double) throws {
        try options.validate()
        let step = options.step
        guard earliest.isFinite, latest.isFinite else {
            throw HeatMapError.invalidConfiguration("no point has a time, so there are no frames")
        }
        let first = options.from ?? step.floor(earliest)
        if let to = options.to, to <= first {
            throw HeatMapError.invalidConfiguration(
                "empty frame range: it starts at \(UTCCalendar.iso8601(first)), not before its end (to) \(UTCCalendar.iso8601(to))"
            )
        }
        let window = options.window ?? step
        var frames: [TimeFrame] = []
        var k = 0
        while true {
            let start = step.advance(first, by: k)
            if let to = options.to {
                if start >= to { break }
            } else if start > latest {
                break
            }
            if frames.count == TimeFrameOptions.maximumFrames {
                var n = frames.count
                while true {
                    let s = step.advance(first, by: n)
                    if let to = options.to { if s >= to { break } } else if s > latest { break }
                    n += 1
                    if n > 10_000_000 { break }
                }
                throw HeatMapError.invalidConfiguration(
                    "\(n > 10_000_000 ? "more than 10000000" : String(n)) frames of \(step) from \(UTCCalendar.iso8601(first)); at most \(TimeFrameOptions.maximumFrames): use a longer step or a shorter span (from, to)"
                )
            }
            frames.append(
                TimeFrame(
                    index: k, start: options.cumulative ? first : start,
                    end: step.windowEnd(from: first, steps: k, window: window)))
            k += 1
        }
        guard !frames.isEmpty else {
            throw HeatMapError.invalidConfiguration(
                "empty frame range: no point's time is at or after \(UTCCalendar.iso8601(first)) (the last is \(UTCCalendar.iso8601(latest)))"
            )
        }
        var cuts = Set<Double>()
        for f in frames {
            cuts.insert(f.start)
            cuts.insert(f.end)
        }
        let edges = cuts.sorted()
        self.frames = frames
        self.edges = edges
        runs = frames.map { f in
            let a = FrameSchedule.index(of: f.start, in: edges), b = FrameSchedule.index(of: f.end, in: edges)
            return a..<b
        }
        var framed = [Bool](repeating: false, count: max(edges.count - 1, 0))
        for run in runs { for j in run { framed[j] = true } }
        self.framed = framed
    }

    private static func index(of edge: Double, in edges: [Double]) -> Int {
        var lo = 0, hi = edges.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if edges[mid] < edge { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The interval holding time `t`, or nil when no frame holds it (or `t` is NaN).
    @inline(__always)
    package func interval(of t: Double) -> Int? {
        guard let first = edges.first, let last = edges.last, t >= first, t < last else { return nil }
        // The last edge ≤ t.
        var lo = 0, hi = edges.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if edges[mid] <= t { lo = mid } else { hi = mid }
        }
        return framed[lo] ? lo : nil
    }
}
