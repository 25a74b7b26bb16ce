import Foundation
import HeatMapCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Checked points kept in an anonymous temporary file as raw doubles, so
/// input that cannot be read twice (a pipe) can still be passed over
/// several times in bounded memory.
///
/// The file is unlinked as soon as it is created: it has no name, and the
/// system reclaims it however the process ends (even on SIGKILL). Records
/// are (latitude, longitude, weight[, value][, radius][, time])
/// little-endian float64.
final class PointSpool {
    private let fd: Int32
    private let stride: Int
    /// Where the value, radius and time are in a record, if kept.
    private let valueSlot: Int?, radiusSlot: Int?, timeSlot: Int?
    private var buffer: [Double]
    private var filled = 0
    /// Points written.
    package private(set) var count = 0

    /// Creates the spool in `$TMPDIR` (or /tmp); `withValues` adds the
    /// value to each record, `withRadii` the radius, `withTimes` the time.
    package init(withValues: Bool, withRadii: Bool = false, withTimes: Bool = false) throws {
        fd = try UnlinkedTemporaryFile.open(prefix: "contours-spool")
        var slots = 3
        func slot(_ kept: Bool) -> Int? {
            guard kept else { return nil }
            defer { slots += 1 }
            return slots
        }
        valueSlot = slot(withValues)
        radiusSlot = slot(withRadii)
        timeSlot = slot(withTimes)
        stride = slots
        buffer = [Double](repeating: 0, count: stride * 65_536)
    }

    deinit { close(fd) }

    /// Appends one point.
    @inline(__always)
    package func append(_ p: InputPoint) throws {
        buffer[filled] = p.latitude
        buffer[filled + 1] = p.longitude
        buffer[filled + 2] = p.weight
        if let valueSlot { buffer[filled + valueSlot] = p.value }
        if let radiusSlot { buffer[filled + radiusSlot] = p.radius }
        if let timeSlot { buffer[filled + timeSlot] = p.time }
        filled += stride
        count += 1
        if filled == buffer.count { try flush() }
    }

    /// Appends every point of `run`, in order.
    package func append(_ run: PointBatch) throws {
        var k = 0
        while k < run.count {
            let n = min(run.count - k, (buffer.count - filled) / stride)
            buffer.withUnsafeMutableBufferPointer { out in
                run.withColumns { latitude, longitude, weight in
                    var f = filled
                    for i in k..<(k + n) {
                        out[f] = latitude[i]
                        out[f + 1] = longitude[i]
                        out[f + 2] = weight[i]
                        if let valueSlot { out[f + valueSlot] = run.value(at: i) }
                        if let radiusSlot { out[f + radiusSlot] = run.radius(at: i) }
                        if let timeSlot { out[f + timeSlot] = run.time(at: i) }
                        f += stride
                    }
                }
            }
            filled += n * stride
            count += n
            k += n
            if filled == buffer.count { try flush() }
        }
    }

    /// Writes what is buffered.
    package func flush() throws {
        var offset = 0
        let bytes = filled * MemoryLayout<Double>.size
        try buffer.withUnsafeBytes { raw in
            while offset < bytes {
                let n = write(fd, raw.baseAddress! + offset, bytes - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    // EFBIG: the points kept to read again pass `ulimit -f`.
                    let why =
                        errno == EFBIG
                        ? "the file-size limit was reached (ulimit -f)"
                        : String(cString: strerror(errno))
                    throw InputError(
                        file: "temporary file", line: 0, column: "", reason: "temporary file",
                        message: "cannot keep the points read for the next pass: \(why)")
                }
                offset += n
            }
        }
        filled = 0
    }

    /// Reads every point back, in batches of `size` points, from the start.
    package func forEachBatch(
        into batch: inout PointBatch, size: Int, control: ComputeControl,
        _ body: (PointBatch) throws -> Void
    ) throws {
        try flush()
        var readOffset: off_t = 0
        let recordBytes = stride * MemoryLayout<Double>.size
        var buffer = [Double](repeating: 0, count: stride * size)
        while true {
            try control.checkCancellation()
            var got = 0
            try buffer.withUnsafeMutableBytes { raw in
                while got < raw.count {
                    let n = pread(fd, raw.baseAddress! + got, raw.count - got, readOffset + off_t(got))
                    if n < 0 {
                        if errno == EINTR { continue }
                        throw InputError(
                            file: "temporary file", line: 0, column: "", reason: "temporary file",
                            message: "cannot read: \(String(cString: strerror(errno)))")
                    }
                    if n == 0 { break }
                    got += n
                }
            }
            readOffset += off_t(got)
            let records = got / recordBytes
            guard records > 0 else { break }
            batch.removeAll()
            buffer.withUnsafeBufferPointer { stored in
                for r in 0..<records {
                    let k = r * stride
                    var p = InputPoint(
                        latitude: stored[k], longitude: stored[k + 1], weight: stored[k + 2],
                        value: valueSlot.map { stored[k + $0] } ?? .nan,
                        time: timeSlot.map { stored[k + $0] } ?? .nan)
                    if let radiusSlot { p.radius = stored[k + radiusSlot] }
                    batch.append(p)
                }
            }
            try body(batch)
        }
    }
}

/// A batch of points as parallel arrays: latitude, longitude and weight,
/// and the value, time and radius of inputs that read them.
///
/// A value, time or radius column is stored only from the first point that
/// brings one (not NaN), with NaN filled in for the points before it: most
/// inputs read none of the three, and three columns of NaN would double the
/// batch's memory (and the fresh pages a reader touches, a third of a small
/// job's time on a virtual machine, docs/performance.md).
package struct PointBatch: Sendable {
    /// Latitudes (planar y).
    package private(set) var latitude: [Double] = []
    /// Longitudes (planar x).
    package private(set) var longitude: [Double] = []
    /// Weights.
    package private(set) var weight: [Double] = []
    /// The optional columns: empty while every point so far has NaN there.
    private var values: [Double] = [], times: [Double] = [], radii: [Double] = []
    /// The points the batch was made to hold.
    private let capacity: Int

    /// Points per batch when streaming: large enough that each batch's
    /// parallel density passes outweigh their start-up (64k-point batches
    /// cost a third more on 10M rows), small enough to stay a few MB.
    static let standardSize = 1 << 18

    /// The number of points.
    package var count: Int { latitude.count }

    /// An empty batch with room for `capacity` points.
    package init(capacity: Int) {
        self.capacity = capacity
        latitude.reserveCapacity(capacity)
        longitude.reserveCapacity(capacity)
        weight.reserveCapacity(capacity)
    }

    /// Values (NaN when not read), one per point; made whole for a batch
    /// that stores none. O(count) then.
    package var value: [Double] { Self.column(values, count: count) }
    /// Times, seconds since the epoch (NaN when not read), as ``value``.
    package var time: [Double] { Self.column(times, count: count) }
    /// Kernel radii (NaN when not read), as ``value``.
    package var radius: [Double] { Self.column(radii, count: count) }

    /// Point `i`'s value (NaN when not read). O(1).
    @inline(__always) package func value(at i: Int) -> Double { values.isEmpty ? .nan : values[i] }
    /// Point `i`'s time (NaN when not read). O(1).
    @inline(__always) package func time(at i: Int) -> Double { times.isEmpty ? .nan : times[i] }
    /// Point `i`'s radius (NaN when not read). O(1).
    @inline(__always) package func radius(at i: Int) -> Double { radii.isEmpty ? .nan : radii[i] }

    private static func column(_ stored: [Double], count: Int) -> [Double] {
        stored.isEmpty ? [Double](repeating: .nan, count: count) : stored
    }

    /// Appends a point.
    @inline(__always)
    package mutating func append(_ p: InputPoint) {
        let n = latitude.count
        latitude.append(p.latitude)
        longitude.append(p.longitude)
        weight.append(p.weight)
        Self.append(p.value, to: &values, at: n, capacity: capacity)
        Self.append(p.time, to: &times, at: n, capacity: capacity)
        Self.append(p.radius, to: &radii, at: n, capacity: capacity)
    }

    /// Appends `v` as point `n`'s entry of an optional column, which starts
    /// (NaN for the points before) at the first entry that is not NaN.
    @inline(__always)
    private static func append(_ v: Double, to column: inout [Double], at n: Int, capacity: Int) {
        if column.isEmpty {
            guard !v.isNaN else { return }
            column.reserveCapacity(max(capacity, n + 1))
            column.append(contentsOf: repeatElement(.nan, count: n))
        }
        column.append(v)
    }

    /// Empties the batch, keeping its capacity.
    package mutating func removeAll() {
        latitude.removeAll(keepingCapacity: true)
        longitude.removeAll(keepingCapacity: true)
        weight.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        times.removeAll(keepingCapacity: true)
        radii.removeAll(keepingCapacity: true)
    }

    /// Calls `body` with the latitude, longitude and weight columns' storage.
    @inline(__always)
    func withColumns<R>(
        _ body: (UnsafeBufferPointer<Double>, UnsafeBufferPointer<Double>, UnsafeBufferPointer<Double>) throws -> R
    ) rethrows -> R {
        try latitude.withUnsafeBufferPointer { la in
            try longitude.withUnsafeBufferPointer { lo in
                try weight.withUnsafeBufferPointer { w in try body(la, lo, w) }
            }
        }
    }

    /// The point at `i`.
    package subscript(i: Int) -> InputPoint {
        var p = InputPoint(
            latitude: latitude[i], longitude: longitude[i], weight: weight[i], value: value(at: i),
            time: time(at: i))
        p.radius = radius(at: i)
        return p
    }
}
