import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity
import Synchronization

/// GeoJSON (RFC 7946) text of contours and bins, ready for QGIS, GDAL,
/// geopandas, Leaflet or Mapbox (docs/formats.md).
///
/// Every export is a FeatureCollection with a `bbox`; positions are
/// [longitude, latitude] (x, y for planar data) rounded to
/// ``GeoJSONOptions/precision`` decimals and valid after rounding (GEOS
/// `is_valid`); rings are closed, exteriors counter-clockwise and holes
/// clockwise; geometry that crosses ±180° is split there into parts with
/// longitudes in [-180, 180]. Numbers never have exponents, and an undefined
/// value is `null`, never NaN. The same input always gives the same bytes.
///
/// ```swift
/// let contours = try await HeatMapContours.compute(from: quakes)
/// let text = try GeoJSONExport.contours(contours)             // bands
/// let bins = try GeoJSONExport.bins(HeatMapBinning.bin(quakes, configuration: .init(size: 25)))
/// ```
public enum GeoJSONExport {
    /// Contours of a computed result: bands (default), nested levels, or
    /// isolines, coloured with the result's gradient and opacity unless the
    /// options say otherwise. O(vertices log vertices).
    /// - Throws: `CancellationError` when `control` is cancelled.
    public static func contours(
        _ contours: HeatMapContours, mode: ContourMode = .bands,
        options: GeoJSONOptions = GeoJSONOptions(),
        control: ComputeControl = .none
    ) throws -> String {
        let collector = ByteCollector()
        try write(contours, mode: mode, options: options, to: collector, control: control)
        return collector.takeString()
    }

    /// The same text as ``contours(_:mode:options:control:)``, written to
    /// `sink` feature by feature instead of returned: memory holds the
    /// rounded geometry and a few batches of text, never the whole file.
    /// - Throws: `CancellationError` when `control` is cancelled, and what
    ///   the sink throws.
    public static func write(
        _ contours: HeatMapContours, mode: ContourMode = .bands,
        options: GeoJSONOptions = GeoJSONOptions(), to sink: ByteSink,
        control: ComputeControl = .none
    ) throws {
        try write(GeoJSONContours(contours), mode: mode, options: options, to: sink, control: control)
    }

    /// The same, from the parts of a result an export uses (the tool lets
    /// the grid go first).
    package static func write(
        _ contours: GeoJSONContours, mode: ContourMode = .bands,
        options: GeoJSONOptions = GeoJSONOptions(), to sink: ByteSink,
        control: ComputeControl = .none
    ) throws {
        // Contours still held as pieces are assembled feature by feature.
        try write(
            source: contours.source, projection: contours.projection, units: contours.units, mode: mode,
            gradient: options.gradient ?? contours.gradient,
            fillOpacity: options.fillOpacity ?? contours.fillOpacity,
            options: options, to: sink, control: control)
    }

    /// Contours from their parts: plane geometry, the projection that
    /// unprojects it (`.planar` writes x/y as they are), and the unit of the
    /// thresholds.
    ///
    /// Features, lowest level first: bands have properties `level`,
    /// `threshold` (lower bound), `upper` (the next threshold, null for the
    /// top band), `units`, `fill`, `fill-opacity`, `stroke`; levels the same
    /// with `upper` null; isolines `level`, `threshold`, `units`, `stroke`
    /// on (Multi)LineStrings. Levels without geometry get no feature.
    public static func contours(
        _ set: ContourSet, projection: PlaneProjection, units: String,
        mode: ContourMode = .bands, gradient: HeatMapGradient = .thermal,
        fillOpacity: Double = 1, options: GeoJSONOptions = GeoJSONOptions(),
        control: ComputeControl = .none
    ) throws -> String {
        let collector = ByteCollector()
        try write(
            set, projection: projection, units: units, mode: mode, gradient: gradient,
            fillOpacity: fillOpacity, options: options, to: collector, control: control)
        return collector.takeString()
    }

    /// The same text as
    /// ``contours(_:projection:units:mode:gradient:fillOpacity:options:control:)``,
    /// written to `sink` feature by feature.
    public static func write(
        _ set: ContourSet, projection: PlaneProjection, units: String,
        mode: ContourMode = .bands, gradient: HeatMapGradient = .thermal,
        fillOpacity: Double = 1, options: GeoJSONOptions = GeoJSONOptions(),
        to sink: ByteSink, control: ComputeControl = .none
    ) throws {
        try write(
            source: set, projection: projection, units: units, mode: mode, gradient: gradient,
            fillOpacity: fillOpacity, options: options, to: sink, control: control)
    }

    /// The writer behind both: levels are read from `source` one at a
    /// time, so contours kept as pieces are assembled as they are written.
    ///
    /// Planar positions take their decimals' limit and the bbox its slot
    /// from the magnitude of the polygons' exteriors. A source that makes
    /// its levels on demand would make every level twice to learn it first;
    /// written to a sink that can go back, the export starts from the
    /// source's guess (its frame) and measures the magnitude as it reads
    /// the polygons. The bytes depend on the magnitude only through the
    /// limit and the slot: when the measured one gives the same two, the
    /// file is the one it writes; otherwise the file is written again from
    /// it (rare: the frame and the contours on two sides of a power of ten).
    private static func write(
        source: any ContourSource, projection: PlaneProjection, units: String,
        mode: ContourMode, gradient: HeatMapGradient, fillOpacity: Double,
        options: GeoJSONOptions, to sink: ByteSink, control: ComputeControl
    ) throws {
        func write(magnitude: Double, measuring seen: LargestMagnitude?, control: ComputeControl) throws {
            try writeOnce(
                source: source, projection: projection, units: units, mode: mode, gradient: gradient,
                fillOpacity: fillOpacity, options: options,
                layout: MagnitudeLayout(magnitude: magnitude, decimals: options.precision), measuring: seen,
                to: sink, control: control)
        }
        guard !projection.isGeographic else { return try write(magnitude: 180, measuring: nil, control: control) }
        if mode != .isolines, let guess = source.magnitudeGuess,
            let rewritable = sink as? RewritableByteSink, let start = rewritable.offset
        {
            let seen = LargestMagnitude()
            try write(magnitude: guess, measuring: seen, control: control)
            let measured = seen.value
            let layout = { MagnitudeLayout(magnitude: $0, decimals: options.precision) }
            if layout(measured) == layout(guess) { return }
            try rewritable.truncate(to: start)
            // Written again without progress: the stage already reported
            // its end.
            var quiet = control
            quiet.progress = nil
            return try write(magnitude: measured, measuring: nil, control: quiet)
        }
        var m = Magnitude()
        for level in 0..<source.thresholds.count {
            if mode == .isolines {
                for line in try source.isolines(level: level, control: control) { for p in line { m.add(p) } }
            } else {
                m.add(exteriorsOf: try source.polygons(mode, level: level, control: control))
            }
        }
        try write(magnitude: m.value, measuring: nil, control: control)
    }

    /// All a contour export's bytes take from the magnitude of its
    /// positions (180 for longitude/latitude): the decimals' limit
    /// (``FixedRing/decimalsLimit(forMagnitude:)``) and the width of the
    /// bbox's slot. Two magnitudes of one layout write the same file.
    struct MagnitudeLayout: Equatable {
        let limit: Int
        let bboxWidth: Int

        /// The layout of `magnitude` for positions of `decimals` decimals.
        init(magnitude: Double, decimals: Int) {
            limit = FixedRing.decimalsLimit(forMagnitude: magnitude)
            bboxWidth = GeoJSONDocument.bboxWidth(
                decimals: VertexPrecision(decimals: decimals, limit: limit).base, magnitude: magnitude)
        }
    }

    /// One pass of the writer, in `layout`; with `seen`, the exteriors'
    /// largest |x| or |y| is measured as the polygons are read
    /// (``Magnitude``).
    private static func writeOnce(
        source: any ContourSource, projection: PlaneProjection, units: String,
        mode: ContourMode, gradient: HeatMapGradient, fillOpacity: Double,
        options: GeoJSONOptions, layout: MagnitudeLayout, measuring seen: LargestMagnitude?,
        to sink: ByteSink, control: ComputeControl
    ) throws {
        let geometry = LonLatGeometry(projection: projection)
        let levelCount = source.thresholds.count
        let thresholds = source.thresholds
        var precision = VertexPrecision(
            decimals: options.precision, limit: layout.limit, chordsOf: projection)
        let opacity = HeatMapColor.clampedOpacity(fillOpacity)
        var document = GeoJSONDocument(geographic: projection.isGeographic)
        document.crsName = options.crsName
        document.kernel = options.kernel?.json
        // Polygon features are gathered first and rounded together, so that
        // neighbouring bands round their shared boundaries alike.
        // Each is rounded from its source polygons (one, or all of the level's),
        // unprojected and split on the way, so no second copy is kept.
        var polygonFeatures: [(level: Int, polygon: Int?, properties: String, vertices: Int)] = []
        for level in 0..<levelCount {
            try control.checkCancellation()
            control.report(.export, 0.5 * Double(level) / Double(max(levelCount, 1)))
            let color = gradient.color(forLevel: level, of: levelCount)
            let stroke = (options.stroke ?? color).hex
            var base = JSONProperties()
            base.add("level", level)
            base.add("threshold", finite(thresholds[level]))
            if mode == .isolines {
                if options.gdalAttributes != nil { base.add("elev", finite(thresholds[level])) }
                base.add("units", units)
                base.add("stroke", stroke)
                let lines = try source.isolines(level: level, control: control)
                let perLine = lines.map { outputLines($0, geometry: geometry, precision: precision) }
                if options.grouping == .polygon {
                    for (k, pieces) in perLine.enumerated() where !pieces.isEmpty {
                        var p = base
                        p.add("index", k)
                        document.add(.lines(pieces), properties: p.json)
                    }
                } else {
                    document.add(.lines(perLine.flatMap { $0 }), properties: base.json)
                }
                continue
            }
            let upper = mode == .bands && level + 1 < levelCount ? finite(thresholds[level + 1]) : nil
            base.add("upper", upper)
            if let gdal = options.gdalAttributes {
                base.add("amin", finite(thresholds[level]))
                base.add("amax", upper ?? finite(gdal.maximum))
            }
            base.add("units", units)
            base.add("fill", color.hex)
            base.add("fill-opacity", roundedOpacity(opacity * color.alpha))
            base.add("stroke", stroke)
            let vertices = source.vertexEstimate(mode, level: level)
            if options.grouping == .polygon {
                let count = try source.polygons(mode, level: level, control: control).count
                for k in 0..<count {
                    var p = base
                    p.add("index", k)
                    polygonFeatures.append((level, k, p.json, vertices / max(count, 1)))
                }
            } else {
                polygonFeatures.append((level, nil, base.json, vertices))
            }
        }
        let pieces = { (f: Int) throws -> [PlanePolygon] in
            let feature = polygonFeatures[f]
            // Unprojected by the source, which unprojects a ring that two
            // bands share once.
            var polygons = try source.rawPolygons(mode, level: feature.level, geometry: geometry, control: control)
            if let seen {
                var m = Magnitude()
                m.add(exteriorsOf: feature.polygon.map { [polygons[$0]] } ?? polygons)
                seen.add(m.value)
            }
            let lonLat =
                feature.polygon.map { outputPolygons(raw: polygons[$0], geometry: geometry, control: control) }
                ?? outputPolygons(releasingRaw: &polygons, geometry: geometry, control: control)
            try control.checkCancellation()
            return lonLat
        }
        document.bboxWidth = layout.bboxWidth
        var firstRound: [PrecisionRounding.FeatureRound]?
        var hoped: (sink: RewritableByteSink, start: Int, written: GeoJSONDocument.Written, kept: [Bool])?
        let stash = RoundedStash(bytes: stashBytes)
        if let rewritable = sink as? RewritableByteSink, let start = rewritable.offset {
            switch try writeHopingForNoRepair(
                document, features: polygonFeatures.map { ($0.properties, $0.vertices) },
                pieces: pieces, precision: precision, to: rewritable, start: start,
                stash: stash, control: control)
            {
            case .written:
                control.report(.export, 1)
                return
            case .repairNeeded(let round, let written, let kept):
                firstRound = round
                hoped = (rewritable, start, written, kept)
            }
        }
        // Levels share positions only with the levels next to them (a band
        // with the band above: the isoline between them).
        let plans = try PrecisionRounding.planFeatures(
            count: polygonFeatures.count, pieces: pieces,
            precision: &precision, control: control,
            firstRound: firstRound
        ) { f, g in
            abs(polygonFeatures[f].level - polygonFeatures[g].level) <= 1
        } roundedAgain: { f, rings in
            // The stash holds a feature's last round or nothing.
            stash.replace(f, with: rings)
        }
        for (k, feature) in polygonFeatures.enumerated() {
            document.addDeferred(
                key: k, extent: plans[k].extent, positions: plans[k].positions,
                properties: feature.properties)
        }
        control.report(.export, 0.75)
        let settled = precision
        // A feature is the rings of its last round of planning, kept or
        // made again. The writing is the stage's last quarter.
        let progress = StageProgress(.export, control: control)
        let made = Atomic<Int>(0)
        let final = { (k: Int) throws -> [PrecisionRounding.Polygon] in
            defer {
                let n = made.add(1, ordering: .relaxed).newValue
                progress.report(0.75 + 0.25 * Double(n) / Double(polygonFeatures.count))
            }
            if let kept = stash.take(k) { return kept }
            return PrecisionRounding.rounded(try pieces(k), precision: settled, dropped: plans[k].dropped)
        }
        if let hoped {
            // The features written in the hope pass that the repairs left
            // as they were stay; the export is written again from the first
            // that changed (or was not written).
            let resume = polygonFeatures.indices.first { !hoped.kept[$0] || !plans[$0].isFirstRound }
            if try document.writeAgain(
                fromKey: resume, of: hoped.written, to: hoped.sink, control: control,
                deferred: final)
            {
                control.report(.export, 1)
                return
            }
            try hoped.sink.truncate(to: hoped.start)
        }
        try document.write(to: sink, control: control, deferred: final)
        control.report(.export, 1)
    }

    /// One Feature per bin: the cell's closed counter-clockwise polygon
    /// (unprojected to longitude/latitude for geographic input with its
    /// edges densified, so a point-in-polygon join in longitude/latitude
    /// gives the tool's counts; split at ±180°) with properties `id`
    /// ("q,r" or "i,j"), `q`, `r` (or `i`, `j`), `lat`, `lon` (the centre;
    /// `y`, `x` for planar input), `count`, `value` (the
    /// `aggregate`, null where undefined), `sum`, `mean`, `min`, `max`, and
    /// `fill`, `fill-opacity`, `stroke` from the options' gradient (thermal
    /// by default) and colour scale. A gradient's transparent lowest stop is
    /// skipped, so every occupied cell shows; empty cells have
    /// `fill-opacity` 0. O(bins).
    /// - Throws: `CancellationError` when `control` is cancelled.
    public static func bins(
        _ result: BinningResult, aggregate: BinAggregate = .count,
        options: GeoJSONOptions = GeoJSONOptions(),
        control: ComputeControl = .none
    ) throws -> String {
        let collector = ByteCollector()
        try write(result, aggregate: aggregate, options: options, to: collector, control: control)
        return collector.takeString()
    }

    /// The same text as ``bins(_:aggregate:options:control:)``, written to
    /// `sink` feature by feature.
    public static func write(
        _ result: BinningResult, aggregate: BinAggregate = .count,
        options: GeoJSONOptions = GeoJSONOptions(), to sink: ByteSink,
        control: ComputeControl = .none
    ) throws {
        let geometry = LonLatGeometry(projection: result.projection)
        let limit = decimalsLimit(projection: result.projection) {
            var m = Magnitude()
            for bin in result.bins { for p in bin.corners { m.add(p) } }
            return m.value
        }
        let precision = VertexPrecision(decimals: options.precision, limit: limit)
        let fill = BinFill(options: options, range: result.valueRange(aggregate))
        let (firstName, secondName) = result.grid.idNames
        let pieces = { (k: Int) in
            outputPolygons(
                PlanePolygon(exterior: BinOutline.densified(result.bins[k].corners, projection: result.projection)),
                geometry: geometry)
        }
        try writeBins(
            count: result.bins.count, pieces: pieces, precision: precision,
            geographic: result.projection.isGeographic, crsName: options.crsName, to: sink,
            control: control
        ) { k in
            let bin = result.bins[k]
            let stats = bin.statistics
            let value = stats.value(aggregate)
            let (color, alpha) = fill.style(of: stats, aggregate: aggregate)
            var p = JSONProperties()
            p.add("id", "\(bin.id.first),\(bin.id.second)")
            p.add(firstName, bin.id.first)
            p.add(secondName, bin.id.second)
            let centre = result.outputCenter(of: bin)
            p.add(result.projection.isGeographic ? "lat" : "y", centre.latitude)
            p.add(result.projection.isGeographic ? "lon" : "x", centre.longitude)
            fill.addAggregates(of: stats, value: value, to: &p)
            fill.addStyle(color: color, alpha: alpha, to: &p)
            return p.json
        }
    }

    /// Writes one Feature per bin, `count` of them, with the properties
    /// `properties(k)` and bin k's polygons `pieces(k)`: all rounded
    /// together first, so that neighbours share their corners exactly,
    /// repairs included (their pieces are cheap to make again), then
    /// written in order. O(bins).
    static func writeBins(
        count: Int, pieces: @escaping (Int) -> [PlanePolygon], precision: VertexPrecision,
        geographic: Bool, crsName: String?, to sink: ByteSink, control: ComputeControl,
        properties: (Int) -> String
    ) throws {
        var precision = precision
        let plans = try PrecisionRounding.planFeatures(
            count: count, pieces: pieces, precision: &precision,
            control: control)
        let settled = precision
        var document = GeoJSONDocument(geographic: geographic)
        document.crsName = crsName
        for k in 0..<count {
            if k % 1024 == 0 {
                try control.checkCancellation()
                control.report(.export, Double(k) / Double(count))
            }
            document.addDeferred(
                key: k, extent: plans[k].extent, positions: plans[k].positions,
                properties: properties(k))
        }
        try document.write(to: sink, control: control) { k in
            PrecisionRounding.rounded(pieces(k), precision: settled, dropped: plans[k].dropped)
        }
        control.report(.export, 1)
    }

    /// What ``writeHopingForNoRepair(_:features:pieces:precision:to:start:control:)`` came to.
    private enum OnePass {
        case written
        /// A rounding needed a repair (or the bbox did not fit its slot):
        /// the first round of planning, when every feature got that far;
        /// where the features were written; which were written as that
        /// round made them (the others were left out).
        case repairNeeded([PrecisionRounding.FeatureRound]?, GeoJSONDocument.Written, [Bool])
    }

    /// The export in one pass, for a sink that can go back: each feature is
    /// rounded and written at once, in the hope that no rounding needs a
    /// repair (repairs are rare), and the bbox is filled in last. A repair
    /// may touch features already written, so from the first one on the
    /// features are only rounded, not written: that round is the first of
    /// the planning that settles every feature's rounding, after which the
    /// export is written again from the first feature that changed. Both
    /// give the bytes of the two passes. The features rounded but not
    /// written go to `stash` (as far as it has room), for the writing after
    /// the planning.
    /// `features[k]` is deferred feature k's properties and vertex estimate.
    private static func writeHopingForNoRepair(
        _ document: GeoJSONDocument,
        features: [(properties: String, vertices: Int)],
        pieces: @escaping (Int) throws -> [PlanePolygon],
        precision: VertexPrecision, to sink: RewritableByteSink,
        start: Int, stash: RoundedStash,
        control: ComputeControl
    ) throws -> OnePass {
        var document = document
        for (k, feature) in features.enumerated() {
            document.addDeferred(key: k, extent: nil, positions: feature.vertices, properties: feature.properties)
        }
        // The estimated positions of the features after each, which the
        // stash keeps room for once a repair is under way.
        var after = [Int](repeating: 0, count: features.count)
        for k in features.indices.dropLast().reversed() { after[k] = after[k + 1] + features[k + 1].vertices }
        let positionsAfter = after
        let rounds = Mutex([PrecisionRounding.FeatureRound?](repeating: nil, count: features.count))
        let kept = Mutex([Bool](repeating: false, count: features.count))
        let repairing = Atomic<Bool>(false), finished = Atomic<Int>(0)
        let progress = StageProgress(.export, control: control)
        let written = try document.writeBBoxLast(to: sink, start: start, control: control) { k in
            let (polygons, round) = try PrecisionRounding.round({ try pieces(k) }, from: precision, control: control)
            rounds.withLock { $0[k] = round }
            if round.raised != nil { repairing.store(true, ordering: .relaxed) }
            // The second quarter of the stage, as the planning of the two
            // passes: a repair then goes on from 0.75, never back.
            progress.report(
                0.5 + 0.25 * Double(finished.add(1, ordering: .relaxed).newValue)
                    / Double(features.count))
            if repairing.load(ordering: .relaxed) {
                stash.keep(polygons, for: k, positionsToCome: positionsAfter[k])
                return ([], GeoJSONDocument.Extent())
            }
            kept.withLock { $0[k] = true }
            return (polygons, round.plan.extent)
        }
        if written.bboxFilled && !repairing.load(ordering: .relaxed) { return .written }
        let made = rounds.withLock { $0 }
        return .repairNeeded(made.allSatisfy { $0 != nil } ? made.map { $0! } : nil, written, kept.withLock { $0 })
    }

    // MARK: Helpers

    /// Bytes of packed rounded features kept after a repair for the
    /// writing that follows the planning (``RoundedStash``): 128 MB, or an
    /// eighth of the memory still available when that is less.
    static var stashBytes: Int {
        let cap = 1 << 27
        guard let available = MemoryBudget.available() else { return cap }
        return min(cap, available / 8)
    }

    /// The decimals that keep coordinates exact on the integer grid: 13 for
    /// longitude/latitude, from the data's magnitude for planar data.
    static func decimalsLimit(projection: PlaneProjection, planarMagnitude: () -> Double) -> Int {
        FixedRing.decimalsLimit(forMagnitude: projection.isGeographic ? 180 : planarMagnitude())
    }

    /// ``Magnitude`` gathered from several threads: the largest value added.
    final class LargestMagnitude: Sendable {
        // Non-negative doubles order as their bit patterns do.
        private let bits = Atomic<UInt64>(0)

        /// Takes in a magnitude (finite, ≥ 0).
        func add(_ m: Double) {
            var seen = bits.load(ordering: .relaxed)
            while m.bitPattern > seen {
                let (exchanged, now) = bits.compareExchange(
                    expected: seen, desired: m.bitPattern, ordering: .relaxed)
                if exchanged { return }
                seen = now
            }
        }

        /// The largest magnitude added (0 when none was).
        var value: Double { Double(bitPattern: bits.load(ordering: .relaxed)) }
    }

    /// The largest finite |coordinate| seen (non-finite ones are dropped later).
    struct Magnitude {
        package var value = 0.0
        package mutating func add(_ p: PlanePoint) {
            if p.x.isFinite { value = max(value, abs(p.x)) }
            if p.y.isFinite { value = max(value, abs(p.y)) }
        }

        /// Adds the positions of the polygons' exteriors: what a contour
        /// export's magnitude is taken from, measured ahead or as it writes.
        package mutating func add(exteriorsOf polygons: [PlanePolygon]) {
            for polygon in polygons { for p in polygon.exterior { add(p) } }
        }
    }

    /// A plane polygon in output coordinates, split at ±180° when geographic.
    /// A cancelled `control` cuts it short within long rings (the caller throws).
    static func outputPolygons(
        _ polygon: PlanePolygon, geometry: LonLatGeometry,
        control: ComputeControl = .none
    ) -> [PlanePolygon] {
        guard polygon.exterior.count >= 3, !control.isCancelled else { return [] }
        return outputPolygons(
            raw: geometry.raw(polygon, control: control), plane: polygon, geometry: geometry, control: control)
    }

    /// ``outputPolygons(_:geometry:control:)`` of a polygon already
    /// ``LonLatGeometry/raw(_:control:)``.
    static func outputPolygons(
        raw polygon: PlanePolygon, plane: PlanePolygon? = nil, geometry: LonLatGeometry,
        control: ComputeControl = .none
    ) -> [PlanePolygon] {
        var out: [PlanePolygon] = []
        outputPolygons(raw: polygon, plane: plane, geometry: geometry, into: &out, control: control)
        return out
    }

    /// Appends ``outputPolygons(raw:plane:geometry:control:)`` to `out`.
    static func outputPolygons(
        raw polygon: PlanePolygon, plane: PlanePolygon? = nil, geometry: LonLatGeometry,
        into out: inout [PlanePolygon], control: ComputeControl = .none
    ) {
        guard polygon.exterior.count >= 3, !control.isCancelled else { return }
        guard geometry.projection.isGeographic else {
            let oriented = geometry.polygon(raw: polygon, control: control)
            if !control.isCancelled { out.append(oriented) }
            return
        }
        let (lonLat, bounds, more) = geometry.measuredPolygon(raw: polygon, plane: plane, control: control)
        if control.isCancelled { return }
        AntimeridianSplitter.split(lonLat, bounds: bounds, into: &out)
        for piece in more { AntimeridianSplitter.split(piece, bounds: piece.bounds, into: &out) }
    }

    /// Raw `polygons` in output coordinates, each left empty once made, so
    /// that raw polygons made for this alone are freed as the output ones
    /// are made (a feature is not held in both at once).
    static func outputPolygons(
        releasingRaw polygons: inout [PlanePolygon], geometry: LonLatGeometry,
        control: ComputeControl = .none
    ) -> [PlanePolygon] {
        var out: [PlanePolygon] = []
        out.reserveCapacity(polygons.count)
        for k in polygons.indices {
            let polygon = polygons[k]
            polygons[k] = PlanePolygon(exterior: [])
            outputPolygons(raw: polygon, geometry: geometry, into: &out, control: control)
        }
        return out
    }

    /// An isoline ring (open, closed by joining last to first) in output coordinates, split and rounded.
    static func outputLines(
        _ ring: [PlanePoint], geometry: LonLatGeometry,
        precision: VertexPrecision
    ) -> [GeoJSONDocument.FixedLine] {
        guard ring.count >= 2 else { return [] }
        let line = geometry.line(ring, closed: true)
        let pieces = geometry.projection.isGeographic ? AntimeridianSplitter.split(line: line, closed: true) : [line]
        return pieces.compactMap { PrecisionRounding.round(line: $0, precision: precision) }
    }

    static func finite(_ v: Double?) -> Double? {
        guard let v, v.isFinite else { return nil }
        return v
    }

    static func roundedOpacity(_ v: Double) -> Double {
        guard v.isFinite else { return 0 }
        return (min(max(v, 0), 1) * 10_000).rounded() / 10_000
    }
}
