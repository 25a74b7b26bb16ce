import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Bins points into a hexagon or square grid batch by batch, in memory
/// proportional to the number of occupied cells (not points), so a tool can
/// stream millions of rows through it.
///
/// ```swift
/// var binner = try Binner(configuration: BinningConfiguration(size: 25), projection: projection)
/// while let batch = reader.next() {          // e.g. 65 536 rows at a time
///     try binner.add(latitudes: batch.lat, longitudes: batch.lon, values: batch.weight)
/// }
/// let result = try binner.result()
/// ```
///
/// Each batch's cell ids go into an integer array; their aggregates are
/// summed in a flat array over the batch's cell range (or, for a sparse
/// batch, after sorting the ids), and only then merged into the running
/// table: one hash lookup per occupied cell per batch, not per point.
/// Points with a non-finite coordinate or value, or too far from the origin
/// for the cell size, are left out and counted in ``summary`` (or refused,
/// when `strict`).
package struct Binner: Sendable {
    /// The grid in the binning plane.
    package let grid: BinGrid
    /// The projection from coordinates to the binning plane (`.planar`
    /// for x/y data).
    package let projection: PlaneProjection
    /// The configuration, for ``result(control:)``.
    package let configuration: BinningConfiguration
    /// When true, the first bad point throws instead of being left out.
    package let strict: Bool
    /// Points binned and points left out (with why).
    package private(set) var summary = InputSummary()
    /// The box of the binned points in the binning plane.
    package private(set) var bounds = PlaneBox.empty
    /// The largest |x| or |y| of any point with finite plane coordinates,
    /// binned or left out as too far out (see ``smallestExactSize``).
    package private(set) var reach = 0.0

    /// The largest |x| or |y| a cell can be computed for at any size (the
    /// cell arithmetic doubles coordinates, which must stay finite).
    package static let largestReach = Double.greatestFiniteMagnitude / 4

    /// Why a point whose cell number would not be exact is left out.
    package static let tooFarReason = "point is too far from the grid origin for the cell size"

    /// The smallest size (the configuration's units: km, or plane units
    /// for `.planar`) whose cell numbers stay exact for every point added
    /// so far, with two significant digits, rounded up.
    package var smallestExactSize: Double {
        Binner.smallestExactSize(reach: reach, planar: configuration.projection == .planar)
    }

    /// The smallest size whose cell numbers stay exact for points whose
    /// |x| and |y| in the binning plane are at most `reach` (km, or plane
    /// units when `planar`), two significant digits rounded up.
    package static func smallestExactSize(reach: Double, planar: Bool) -> Double {
        // A hexagon's q takes |x| and |y| together: half the limit each.
        let plane = reach / Double(HexGrid.indexLimit / 2 - 4)
        let size = planar ? plane : plane / 1000
        guard size > 0, size.isFinite else { return size }
        let step = pow(10, floor(log10(size)) - 1)
        return (size / step).rounded(.up) * step
    }

    // The running table: packed id → slot, and the slots' aggregates.
    private var slots: [Int: Int] = [:]
    private var keys: [Int] = []
    private var statistics: [BinStatistics] = []
    // Scratch reused by every batch.
    private var flat: [BinStatistics] = []
    private var seen = 0

    /// Points per internal chunk: bounds the flat scratch array and the
    /// latency of cancellation.
    static let chunk = 1 << 20

    /// Creates an empty binner.
    /// - Parameters:
    ///   - configuration: shape, size (km for geographic, units for planar), orientation.
    ///   - projection: how coordinates reach the binning plane; pass the
    ///     fitted projection of the data (see ``ProjectionFitter``). Its kind
    ///     must be `.planar` exactly when `configuration.projection` is.
    /// - Throws: ``HeatMapError/invalidConfiguration(_:)`` for a bad size or
    ///   a projection that disagrees with the configuration.
    package init(configuration: BinningConfiguration, projection: PlaneProjection, strict: Bool = false) throws {
        guard (projection.kind == .planar) == (configuration.projection == .planar) else {
            throw HeatMapError.invalidConfiguration(
                "binning projection \(projection.kind.rawValue) does not match configuration \(configuration.projection.rawValue)"
            )
        }
        self.grid = try configuration.grid()
        self.projection = projection
        self.configuration = configuration
        self.strict = strict
    }

    /// The number of occupied cells so far.
    var occupiedCellCount: Int { keys.count }

    // MARK: Adding points

    /// Adds geographic points (degrees), projecting them first. `values`
    /// (a value column or the weights) may be nil: every value is then 1.
    /// A latitude outside [-90, 90] or a longitude outside [-180, 360) is
    /// bad input. O(n).
    package mutating func add(
        latitudes: [Double], longitudes: [Double], values: [Double]? = nil,
        control: ComputeControl = .none
    ) throws {
        try checkLengths(latitudes.count, longitudes.count, values?.count)
        var xs = [Double](), ys = [Double]()
        let projector = PointProjector(projection)
        var start = 0
        while start < latitudes.count {
            try control.checkCancellation()
            let end = min(start + Binner.chunk, latitudes.count)
            xs.removeAll(keepingCapacity: true); ys.removeAll(keepingCapacity: true)
            var badness: [Int: String] = [:]
            for k in start..<end {
                let lat = latitudes[k], lon = longitudes[k]
                if let why = PointRule.problem(
                    latitude: lat, longitude: lon, weight: 0, value: nil,
                    geographic: projection.isGeographic)
                {
                    badness[k - start] = why
                    xs.append(.nan); ys.append(.nan)
                } else {
                    let p = projector.plane(latitude: lat, longitude: lon)
                    xs.append(p.x); ys.append(p.y)
                }
            }
            try addChunk(xs: xs[...], ys: ys[...], values: values?[start..<end], reasons: badness)
            start = end
        }
    }

    /// Adds points already in the binning plane. `values` may be nil
    /// (every value 1). O(n).
    package mutating func add(
        x: [Double], y: [Double], values: [Double]? = nil,
        control: ComputeControl = .none
    ) throws {
        try checkLengths(x.count, y.count, values?.count)
        var start = 0
        while start < x.count {
            try control.checkCancellation()
            let end = min(start + Binner.chunk, x.count)
            try addChunk(xs: x[start..<end], ys: y[start..<end], values: values?[start..<end], reasons: [:])
            start = end
        }
    }

    /// Adds one point in the binning plane.
    package mutating func add(_ point: PlanePoint, value: Double = 1) throws {
        try addChunk(xs: [point.x][...], ys: [point.y][...], values: [value][...], reasons: [:])
    }

    private func checkLengths(_ a: Int, _ b: Int, _ c: Int?) throws {
        guard a == b, c == nil || c == a else {
            throw HeatMapError.invalidConfiguration("binning arrays differ in length (\(a), \(b), \(c ?? a))")
        }
    }

    private mutating func reject(_ why: String, at k: Int) throws {
        if strict { throw HeatMapError.invalidPoint(index: seen + k, reason: why) }
        summary.rejected[why, default: 0] += 1
    }

    private static let offset = 1 << 30
    private static let mask = (1 << 31) - 1

    /// Packs an id so that integer order is row-major order.
    @inline(__always) static func pack(_ a: Int, _ b: Int) -> Int {
        ((b + offset) << 31) | (a + offset)
    }

    @inline(__always) static func unpack(_ key: Int) -> BinCellID {
        BinCellID((key & mask) - offset, (key >> 31) - offset)
    }

    private mutating func addChunk(
        xs: ArraySlice<Double>, ys: ArraySlice<Double>, values: ArraySlice<Double>?,
        reasons: [Int: String]
    ) throws {
        let n = xs.count
        var keys = [Int](repeating: -1, count: n)
        var failures = [UInt8](repeating: 0, count: n)
        // Keys part by part on every core; each part keeps its own box,
        // index range and failure count, combined below in part order.
        let parts = (n + Binner.part - 1) / Binner.part
        var partial = [KeyPass.Outcome](repeating: KeyPass.Outcome(), count: parts)
        xs.withUnsafeBufferPointer { xp in
            ys.withUnsafeBufferPointer { yp in
                withOptionalSlice(values) { vp in
                    keys.withUnsafeMutableBufferPointer { kp in
                        failures.withUnsafeMutableBufferPointer { fp in
                            partial.withUnsafeMutableBufferPointer { outcomes in
                                let pass = KeyPass(xs: xp, ys: yp, values: vp, keys: kp, failures: fp, reasons: reasons)
                                let outcomes = UncheckedSendable(outcomes.baseAddress!)
                                let grid = self.grid
                                Parallel.forEach(parts) { k in
                                    let range = k * Binner.part..<min(n, (k + 1) * Binner.part)
                                    switch grid {
                                    case .hexagon(let g): outcomes.value[k] = Binner.computeKeys(g, pass, range)
                                    case .square(let g): outcomes.value[k] = Binner.computeKeys(g, pass, range)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        var box = bounds
        var (aLo, aHi, bLo, bHi) = (Int.max, Int.min, Int.max, Int.min)
        var failed = 0
        for outcome in partial {
            reach = max(reach, outcome.reach)
            box.formUnion(outcome.box)
            aLo = min(aLo, outcome.aLo); aHi = max(aHi, outcome.aHi)
            bLo = min(bLo, outcome.bLo); bHi = max(bHi, outcome.bHi)
            failed += outcome.failed
        }
        if failed > 0 {
            for k in 0..<n where failures[k] != 0 {
                switch failures[k] {
                case 1: try reject(reasons[k] ?? "bad point", at: k)
                case 2:
                    try reject(
                        projection.isGeographic ? "coordinate is not a finite number" : "x or y is not a finite number",
                        at: k)
                case 3: try reject(PointRule.notFinite(.value, geographic: projection.isGeographic), at: k)
                default: try reject(Binner.tooFarReason, at: k)
                }
            }
        }
        bounds = box
        seen += n
        guard aLo <= aHi else { return }
        let used = n - failed
        summary.used += used
        let spanA = aHi - aLo + 1, spanB = bHi - bLo + 1
        if Double(spanA) * Double(spanB) <= Double(max(2 * used, 4096)) {
            accumulateFlat(keys: keys, values: values, aLo: aLo, bLo: bLo, spanA: spanA, spanB: spanB)
        } else {
            accumulateSorted(keys: keys, values: values)
        }
    }

    /// Points per part of a chunk whose keys one core computes.
    package static let part = 1 << 16

    private struct KeyPass: @unchecked Sendable {
        let xs: UnsafeBufferPointer<Double>
        let ys: UnsafeBufferPointer<Double>
        package let values: UnsafeBufferPointer<Double>?
        let keys: UnsafeMutableBufferPointer<Int>
        let failures: UnsafeMutableBufferPointer<UInt8>
        package let reasons: [Int: String]

        /// What one part of the pass found.
        struct Outcome {
            package var box = PlaneBox.empty
            var aLo = Int.max, aHi = Int.min, bLo = Int.max, bHi = Int.min
            var failed = 0
            package var reach = 0.0
        }
    }

    /// Cell keys of points `range` of a chunk (each part writes only its
    /// own entries), four points at a time. A failed point's key stays −1
    /// and `failures` says why: 1 bad coordinate range, 2 non-finite
    /// coordinate, 3 non-finite value, 4 too far out.
    @inline(__always)
    private static func computeKeys<G: CellIndexing>(_ grid: G, _ pass: KeyPass, _ range: Range<Int>) -> KeyPass.Outcome
    {
        var failed = 0
        var aLo = Int.max, aHi = Int.min, bLo = Int.max, bHi = Int.min
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        var reach = 0.0
        let hasReasons = !pass.reasons.isEmpty
        var start = range.lowerBound
        while start < range.upperBound {
            let count = min(4, range.upperBound - start)
            var xs = SIMD4<Double>(repeating: 0), ys = SIMD4<Double>(repeating: 0)
            for l in 0..<count { xs[l] = pass.xs[start + l]; ys[l] = pass.ys[start + l] }
            let cells = grid.index(x: xs, y: ys)
            for l in 0..<count {
                let k = start + l, x = xs[l], y = ys[l]
                let valueIsFinite = pass.values.map { $0[k].isFinite } ?? true
                if x.isFinite && y.isFinite { reach = max(reach, abs(x), abs(y)) }
                if hasReasons, pass.reasons[k] != nil {
                    pass.failures[k] = 1
                } else if !cells.valid[l] {
                    pass.failures[k] = !x.isFinite || !y.isFinite ? 2 : !valueIsFinite ? 3 : 4
                } else if !valueIsFinite {
                    pass.failures[k] = 3
                } else {
                    let a = Int(cells.a[l]), b = Int(cells.b[l])
                    minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
                    aLo = min(aLo, a); aHi = max(aHi, a); bLo = min(bLo, b); bHi = max(bHi, b)
                    pass.keys[k] = Binner.pack(a, b)
                    continue
                }
                failed += 1
            }
            start += count
        }
        let box = minX <= maxX ? PlaneBox(minX: minX, minY: minY, maxX: maxX, maxY: maxY) : .empty
        return KeyPass.Outcome(box: box, aLo: aLo, aHi: aHi, bLo: bLo, bHi: bHi, failed: failed, reach: reach)
    }

    /// Dense batch: aggregates in flat arrays over the batch's cell range.
    /// The points are cut into a few consecutive groups, each summed into
    /// its own array on its own core, and the arrays are merged cell by
    /// cell in group order. The number of groups depends on the batch only
    /// (never on the cores), so the sums are the same bit for bit on any
    /// machine.
    private mutating func accumulateFlat(
        keys: [Int], values: ArraySlice<Double>?,
        aLo: Int, bLo: Int, spanA: Int, spanB: Int
    ) {
        let cells = spanA * spanB
        // Groups of at least 64 Ki points, and their arrays within 64 MiB.
        let byMemory = (64 << 20) / max(cells * MemoryLayout<BinStatistics>.stride, 1)
        let groups = max(1, min(4, keys.count >> 16, byMemory))
        flat.removeAll(keepingCapacity: true)
        flat.append(contentsOf: repeatElement(BinStatistics.empty, count: cells * groups))
        flat.withUnsafeMutableBufferPointer { tables in
            keys.withUnsafeBufferPointer { keys in
                withOptionalSlice(values) { values in
                    let tables = UncheckedSendable(tables.baseAddress!)
                    Parallel.forEach(groups) { g in
                        let table = tables.value + g * cells
                        for k in keys.count * g / groups..<keys.count * (g + 1) / groups {
                            let key = keys[k]
                            guard key >= 0 else { continue }
                            let id = Binner.unpack(key)
                            table[(id.second - bLo) * spanA + (id.first - aLo)].add(values?[k] ?? 1)
                        }
                    }
                }
            }
        }
        for slot in 0..<cells {
            var total = flat[slot]
            for g in 1..<groups { total.merge(flat[g * cells + slot]) }
            guard total.count > 0 else { continue }
            merge(Binner.pack(aLo + slot % spanA, bLo + slot / spanA), total)
        }
    }

    /// Sparse batch: sort (id, value) pairs and merge runs.
    private mutating func accumulateSorted(keys: [Int], values: ArraySlice<Double>?) {
        let v0 = values?.startIndex ?? 0
        var pairs: [(key: Int, value: Double)] = []
        pairs.reserveCapacity(keys.count)
        for (k, key) in keys.enumerated() where key >= 0 {
            pairs.append((key, values?[v0 + k] ?? 1))
        }
        pairs.sort { $0.key < $1.key }
        var i = 0
        while i < pairs.count {
            var stats = BinStatistics.empty
            let key = pairs[i].key
            while i < pairs.count, pairs[i].key == key {
                stats.add(pairs[i].value)
                i += 1
            }
            merge(key, stats)
        }
    }

    private mutating func merge(_ key: Int, _ stats: BinStatistics) {
        if let slot = slots[key] {
            statistics[slot].merge(stats)
        } else {
            slots[key] = keys.count
            keys.append(key)
            statistics.append(stats)
        }
    }

    // MARK: Result

    /// The bins so far, in row-major id order; with the configuration's
    /// `includeEmpty`, also every empty cell covering the data's box.
    /// O(cells log cells).
    /// - Throws: ``HeatMapError/invalidConfiguration(_:)`` when the empty
    ///   cells would exceed `configuration.maximumCells` or a cell's sum
    ///   passes the largest double; `CancellationError`.
    package func result(control: ComputeControl = .none) throws -> BinningResult {
        guard statistics.allSatisfy({ $0.sum.isFinite }) else {
            throw HeatMapError.sumsOverflow(values: true, cells: true)
        }
        var order = Array(keys.indices)
        order.sort { keys[$0] < keys[$1] }
        var bins: [Bin] = []
        bins.reserveCapacity(order.count)
        if configuration.includeEmpty, !bounds.isEmpty {
            let estimate = grid.candidateCount(covering: bounds)
            guard estimate <= Double(configuration.maximumCells) else {
                throw HeatMapError.invalidConfiguration(
                    "including empty cells would make about \(Int(min(estimate, 1e18))) cells over the data's box "
                        + "(limit \(configuration.maximumCells)); use a larger bin size")
            }
            // The cover's ids, and a bin each (the corners are computed later, per cell).
            let each = MemoryLayout<Bin>.stride + 2 * MemoryLayout<BinCellID>.stride
            try MemoryBudget.reserve(
                MemoryBudget.product(Int(estimate), each),
                for: "listing \(Int(estimate)) cells, the empty ones included,")
            let cover = grid.cells(covering: bounds)
            try control.checkCancellation()
            // Both lists are row-major: merge them.
            var i = 0
            for id in cover {
                let key = Binner.pack(id.first, id.second)
                while i < order.count, keys[order[i]] < key {
                    bins.append(Bin(id: Binner.unpack(keys[order[i]]), statistics: statistics[order[i]], grid: grid))
                    i += 1
                }
                if i < order.count, keys[order[i]] == key {
                    bins.append(Bin(id: id, statistics: statistics[order[i]], grid: grid))
                    i += 1
                } else {
                    bins.append(Bin(id: id, statistics: .empty, grid: grid))
                }
            }
            while i < order.count {
                bins.append(Bin(id: Binner.unpack(keys[order[i]]), statistics: statistics[order[i]], grid: grid))
                i += 1
            }
        } else {
            for slot in order {
                bins.append(Bin(id: Binner.unpack(keys[slot]), statistics: statistics[slot], grid: grid))
            }
        }
        return BinningResult(grid: grid, projection: projection, bins: bins, summary: summary, bounds: bounds)
    }
}
