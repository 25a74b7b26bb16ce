import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity
import Synchronization

/// A FeatureCollection being assembled: geometry already rounded, so the
/// `bbox` is known before anything is written.
struct GeoJSONDocument {
    /// A line on the decimal grid.
    struct FixedLine {
        package var points: [FixedPoint]
        package var decimals: Int
    }

    enum Geometry {
        case polygons([PrecisionRounding.Polygon])
        case lines([FixedLine])
    }

    struct Feature {
        package var geometry: Geometry
        /// The properties object, already JSON.
        var properties: String
    }

    /// Where a set of rings lies: the [west, east] longitude (or x) ranges
    /// they cover, and the y range of all.
    struct Extent {
        /// Ranges as added, merged from time to time (``merged``) so that a
        /// document of a million rings keeps a few, not a million.
        private(set) var xRanges: [(Double, Double)] = []
        var yLow = Double.infinity, yHigh = -Double.infinity
        /// Ranges held past this are merged.
        private var mergeAt = 1024

        package mutating func add(_ ring: FixedRing) { add(ring.points, decimals: ring.decimals) }

        package mutating func add(_ points: [FixedPoint], decimals: Int) {
            guard let first = points.first else { return }
            var lo = first.x, hi = first.x, ylo = first.y, yhi = first.y
            for p in points {
                lo = min(lo, p.x); hi = max(hi, p.x); ylo = min(ylo, p.y); yhi = max(yhi, p.y)
            }
            xRanges.append((FixedRing.value(lo, decimals), FixedRing.value(hi, decimals)))
            yLow = min(yLow, FixedRing.value(ylo, decimals))
            yHigh = max(yHigh, FixedRing.value(yhi, decimals))
            mergeIfLong()
        }

        package mutating func add(_ other: Extent) {
            xRanges.append(contentsOf: other.xRanges)
            yLow = min(yLow, other.yLow)
            yHigh = max(yHigh, other.yHigh)
            mergeIfLong()
        }

        /// The ranges' union as disjoint ranges from west to east (ranges
        /// that touch are one). Merging some first leaves the union as it is.
        var merged: [(Double, Double)] {
            var merged: [(Double, Double)] = []
            for r in xRanges.sorted(by: { $0.0 < $1.0 }) {
                if let last = merged.last, r.0 <= last.1 {
                    merged[merged.count - 1].1 = max(last.1, r.1)
                } else {
                    merged.append(r)
                }
            }
            return merged
        }

        private mutating func mergeIfLong() {
            guard xRanges.count > mergeAt else { return }
            xRanges = merged
            mergeAt = max(1024, 2 * xRanges.count)
        }
    }

    /// Whether positions are longitude/latitude (bbox may cross ±180°).
    package let geographic: Bool
    /// The `crs` member's name, for output not in longitude/latitude.
    package var crsName: String?
    /// A `kernel` member's JSON, or nil.
    package var kernel: String?
    /// The bytes the `bbox` member takes, padded with spaces (nil: as long
    /// as it is). A fixed width lets a writer fill the bbox in last (see
    /// ``writeBBoxLast(to:start:control:deferred:)``), with the same bytes.
    var bboxWidth: Int?
    package private(set) var features: [Feature] = []
    /// Features whose polygons are made as they are written: index into
    /// `features` → the caller's key for ``write(to:control:deferred:)``.
    private var deferredKeys: [Int: (key: Int, positions: Int)] = [:]
    private var extent = Extent()

    package init(geographic: Bool) {
        self.geographic = geographic
    }

    /// Adds a feature; one without geometry is left out.
    package mutating func add(_ geometry: Geometry, properties: String) {
        switch geometry {
        case .polygons(let polygons):
            guard !polygons.isEmpty else { return }
            for polygon in polygons { if let ext = polygon.first { extent.add(ext) } }
        case .lines(let lines):
            guard !lines.isEmpty else { return }
            for line in lines { extent.add(line.points, decimals: line.decimals) }
        }
        features.append(Feature(geometry: geometry, properties: properties))
    }

    /// Adds a feature whose polygons are made only when it is written, by
    /// the `deferred` function given to ``write(to:control:deferred:)``
    /// with `key`; `extent` is where their exteriors lie (nil: known once
    /// made, for ``writeBBoxLast(to:start:control:deferred:)``), `positions`
    /// about how many they hold. A feature with an empty extent has no
    /// geometry and is left out.
    mutating func addDeferred(key: Int, extent: Extent?, positions: Int, properties: String) {
        if let extent, extent.xRanges.isEmpty { return }
        if let extent { self.extent.add(extent) }
        deferredKeys[features.count] = (key, positions)
        features.append(Feature(geometry: .polygons([]), properties: properties))
    }

    /// [west, south, east, north]; for geographic data that crosses ±180°
    /// west > east (RFC 7946; docs/formats.md). Nil without features.
    package var bbox: [Double]? {
        let yLow = extent.yLow, yHigh = extent.yHigh
        let merged = extent.merged
        guard !merged.isEmpty else { return nil }
        let west = merged[0].0, east = merged[merged.count - 1].1
        guard geographic, merged.count > 1 else { return [west, yLow, east, yHigh] }
        // The box spans the complement of the widest empty arc of longitude.
        var widest = west + 360 - east
        var box = [west, yLow, east, yHigh]
        for k in 1..<merged.count {
            let gap = merged[k].0 - merged[k - 1].1
            if gap > widest {
                widest = gap
                box = [merged[k].0, yLow, merged[k - 1].1, yHigh]
            }
        }
        return box
    }

    /// The whole FeatureCollection as one text.
    package func text(control: ComputeControl = .none) throws -> String {
        let collector = ByteCollector()
        try write(to: collector, control: control)
        return collector.takeString()
    }

    /// Writes the FeatureCollection to `sink` feature by feature: each
    /// feature's geometry is formatted on a core of its own a few features
    /// ahead of the one being written (``Parallel/ordered(_:cost:budget:control:make:consume:)``)
    /// and written in order, so the bytes are the same as one thread's and
    /// only those few features are held at once.
    ///
    /// Deferred features get their polygons from `deferred(key)`, made
    /// there too; a deferred feature made without polygons is left out.
    package func write(
        to sink: ByteSink, control: ComputeControl = .none,
        deferred: ((Int) throws -> [PrecisionRounding.Polygon])? = nil
    ) throws {
        _ = try write(to: sink, control: control, bboxSlot: nil, deferred: deferred)
    }

    /// Where a writing with the bbox last stands: the bbox slot, and where
    /// each feature's text began in the sink with how many features were
    /// written before it (a place to write again from; one more for the end).
    struct Written {
        /// Where in the sink a feature's text began, and how many features
        /// were written before it.
        typealias Place = (offset: Int, written: Int)
        var slot: Range<Int>?
        /// Per deferred feature's key.
        package var starts: [Int: Place] = [:]
        /// Where the end of the collection began.
        package var end: Place?
        /// Whether the bbox is in its slot.
        var bboxFilled = false
    }

    /// The same, with the bbox written last: its slot (``bboxWidth`` bytes,
    /// spaces until then) is filled in once every feature is written, from
    /// the extents the deferred features were made with (where their
    /// exteriors lie, as ``Extent/add(_:)`` finds it, given by `deferred`
    /// beside the polygons) — for writers that do not know where the
    /// geometry lies before they make it. The bytes are those of
    /// ``write(to:control:deferred:)`` with the same extent. The bbox is
    /// not filled when there is none or it did not fit its slot (then
    /// write again from `start`).
    func writeBBoxLast(
        to sink: RewritableByteSink, start: Int, control: ComputeControl = .none,
        deferred: @escaping (Int) throws -> (polygons: [PrecisionRounding.Polygon], extent: Extent)
    ) throws -> Written {
        precondition(bboxWidth != nil, "a bbox written last needs its slot's width")
        let made = Mutex(Extent())
        var written = try write(to: sink, control: control, bboxSlot: start) { k in
            let (polygons, extent) = try deferred(k)
            made.withLock { $0.add(extent) }
            return polygons
        }
        var document = self
        document.extent.add(made.withLock { $0 })
        written.bboxFilled = try document.fillBBox(written.slot, in: sink)
        return written
    }

    /// Writes the deferred features from the one of `key` on (nil: none,
    /// only the end) over what `sink` holds from where `written` put it
    /// (the features before stay as written), then the end, and fills the
    /// bbox slot from this document's extent. Returns whether that worked
    /// (the bbox fitted its slot; if not, write again from the start).
    func writeAgain(
        fromKey key: Int?, of written: Written, to sink: RewritableByteSink,
        control: ComputeControl = .none,
        deferred: @escaping (Int) throws -> [PrecisionRounding.Polygon]
    ) throws -> Bool {
        guard let place = key.map({ written.starts[$0] }) ?? written.end else { return false }
        // This document leaves out features without geometry, so its index
        // of the key is found, not assumed.
        let first =
            key.flatMap { key in features.indices.first { deferredKeys[$0].map { $0.key >= key } ?? false } }
            ?? features.count
        try sink.truncate(to: place.offset)
        _ = try write(
            to: sink, control: control, bboxSlot: nil, deferred: deferred,
            resume: (first, place.written))
        return try fillBBox(written.slot, in: sink)
    }

    /// Puts this document's bbox into `slot`; false when there is no bbox
    /// or it does not fit.
    private func fillBBox(_ slot: Range<Int>?, in sink: RewritableByteSink) throws -> Bool {
        var text = JSONText(reserving: 256)
        appendBBox(to: &text)
        // No geometry at all has no bbox, and nothing to pad.
        guard let slot, bbox != nil, text.bytes.count == slot.count else { return false }
        try text.bytes.withUnsafeBytes { try sink.overwrite(at: slot.lowerBound, with: $0) }
        return true
    }

    /// The longest bbox member of positions up to `magnitude` with at
    /// most `decimals` decimals: four numbers of sign, integer digits,
    /// point and decimals, commas and brackets.
    static func bboxWidth(decimals: Int, magnitude: Double) -> Int {
        let digits = magnitude >= 10 && magnitude.isFinite ? Int(log10(magnitude).rounded(.down)) + 1 : 1
        return ",\"bbox\":[]".utf8.count + 3 + 4 * (2 + max(digits, 1) + max(decimals, 0))
    }

    /// The `bbox` member (none without features), padded with spaces to
    /// ``bboxWidth`` when set.
    private func appendBBox(to out: inout JSONText) {
        let start = out.bytes.count
        if let bbox {
            out.append(",\"bbox\":[")
            for (k, v) in bbox.enumerated() {
                if k > 0 { out.append(byte: UInt8(ascii: ",")) }
                out.append(number: v)
            }
            out.append("]")
        }
        if bbox != nil, let bboxWidth {
            for _ in (out.bytes.count - start)..<max(bboxWidth, out.bytes.count - start) {
                out.append(byte: UInt8(ascii: " "))
            }
        }
    }

    /// The writer behind them; with `bboxSlot` (the sink's offset at the
    /// start) the bbox slot is left blank, and its range and each feature's
    /// start are returned; with `resume` (a feature and how many were
    /// written before it) the header and the features before it are not
    /// written again.
    private func write(
        to sink: ByteSink, control: ComputeControl, bboxSlot: Int?,
        deferred: ((Int) throws -> [PrecisionRounding.Polygon])?,
        resume: (feature: Int, written: Int)? = nil
    ) throws -> Written {
        var out = JSONText(reserving: 1 << 20)
        var result = Written()
        let rewritable = bboxSlot == nil ? nil : sink as? RewritableByteSink
        if resume == nil {
            out.append("{\"type\":\"FeatureCollection\"")
            if let crsName {
                out.append(",\"crs\":{\"type\":\"name\",\"properties\":{\"name\":")
                out.append(quoted: crsName)
                out.append("}}")
            }
            if let kernel {
                out.append(",\"kernel\":")
                out.append(kernel)
            }
            if let start = bboxSlot, let bboxWidth {
                let first = start + out.bytes.count
                for _ in 0..<bboxWidth { out.append(byte: UInt8(ascii: " ")) }
                result.slot = first..<(first + bboxWidth)
            } else {
                appendBBox(to: &out)
            }
            out.append(",\"features\":[")
        }
        var written = resume?.written ?? 0
        let first = resume?.feature ?? 0
        // Each feature's geometry is made and formatted on a maker thread, a
        // few features ahead; this thread writes them in order.
        try Parallel.ordered(
            features.count - first, cost: { self.positions(ofFeature: first + $0) },
            budget: GeoJSONDocument.aheadPositions, control: control
        ) { i in
            try geometryText(ofFeature: first + i, deferred: deferred, control: control)
        } consume: { i, geometry in
            let k = first + i
            if let rewritable, let key = deferredKeys[k]?.key {
                result.starts[key] = (rewritable.offset! + out.bytes.count, written)
            }
            try control.checkCancellation()
            guard let geometry else { return }
            out.append(written == 0 ? "\n" : ",\n")
            written += 1
            out.append("{\"type\":\"Feature\",\"properties\":")
            out.append(features[k].properties)
            out.append(",\"geometry\":")
            for p in geometry.pieces.indices {
                // Each piece goes once written: a big feature's text is not
                // held whole while it goes out.
                let piece = geometry.pieces[p]
                geometry.pieces[p] = JSONText(reserving: 0)
                if piece.bytes.count >= 1 << 16 || out.bytes.count + piece.bytes.count > 1 << 20 {
                    // A large piece goes out as it is, not through a copy
                    // (most of a big feature's pieces are nearly a megabyte).
                    try out.flush(to: sink)
                    try piece.write(to: sink)
                } else {
                    out.append(piece)
                }
            }
            out.append("}")
            if out.bytes.count >= 1 << 20 { try out.flush(to: sink) }
        }
        if let rewritable { result.end = (rewritable.offset! + out.bytes.count, written) }
        out.append("\n]}\n")
        try out.flush(to: sink)
        return result
    }

    /// Positions of deferred features (beyond one per core) made ahead of
    /// the one being written, at most: enough to keep every core busy, few
    /// enough to hold.
    static let aheadPositions = 1 << 20

    /// About how many positions feature k holds.
    private func positions(ofFeature k: Int) -> Int {
        if let d = deferredKeys[k] { return d.positions }
        switch features[k].geometry {
        case .polygons(let polygons): return polygons.reduce(0) { $0 + $1.reduce(0) { $0 + $1.points.count } }
        case .lines(let lines): return lines.reduce(0) { $0 + $1.points.count }
        }
    }

    /// Feature k's geometry member as text, in pieces; nil when a deferred
    /// feature was made without polygons (it is left out).
    private func geometryText(
        ofFeature k: Int, deferred: ((Int) throws -> [PrecisionRounding.Polygon])?,
        control: ComputeControl
    ) throws -> GeometryText? {
        let text: [JSONText]
        if let d = deferredKeys[k], let deferred {
            var polygons = try deferred(d.key)
            if polygons.isEmpty { return nil }
            // Made for this text alone: each polygon goes once it is text.
            text = GeoJSONDocument.text(releasing: &polygons, control: control)
        } else {
            text = GeoJSONDocument.text(of: features[k].geometry, control: control)
        }
        try control.checkCancellation()
        return GeometryText(pieces: text)
    }

    /// A feature's geometry text as made, handed to the writer, which
    /// gives its pieces up as it writes them.
    private final class GeometryText {
        var pieces: [JSONText]
        package init(pieces: [JSONText]) { self.pieces = pieces }
    }

    /// The text of a geometry member in pieces of at most about a megabyte
    /// (``JSONPieces``): the writer hands large pieces to the sink as they
    /// are, without copying them.
    /// A cancelled `control` cuts it short between polygons or lines (the
    /// caller throws).
    private static func text(of geometry: Geometry, control: ComputeControl = .none) -> [JSONText] {
        switch geometry {
        case .polygons(var polygons):
            return text(releasing: &polygons, control: control)
        case .lines(let lines):
            return text(ofLines: lines, control: control)
        }
    }

    /// The text of a (Multi)Polygon member; each polygon is left empty once
    /// it is text, so that polygons made for it alone are freed as it grows.
    private static func text(
        releasing polygons: inout [PrecisionRounding.Polygon],
        control: ComputeControl
    ) -> [JSONText] {
        var out = JSONPieces()
        out.append(
            polygons.count == 1
                ? "{\"type\":\"Polygon\",\"coordinates\":" : "{\"type\":\"MultiPolygon\",\"coordinates\":[")
        for k in polygons.indices {
            if control.isCancelled { break }
            let polygon = polygons[k]
            polygons[k] = []
            out.append(k > 0 ? ",[" : "[")
            for (r, ring) in polygon.enumerated() {
                if r > 0 { out.append(byte: UInt8(ascii: ",")) }
                // Closed in the file: the first position again at the end.
                out.append(positions: ring.points, closing: true, decimals: ring.decimals)
            }
            out.append(byte: UInt8(ascii: "]"))
        }
        out.append(polygons.count == 1 ? "}" : "]}")
        return out.finish()
    }

    /// The text of a (Multi)LineString member.
    private static func text(ofLines lines: [FixedLine], control: ComputeControl) -> [JSONText] {
        var out = JSONPieces()
        out.append(
            lines.count == 1
                ? "{\"type\":\"LineString\",\"coordinates\":" : "{\"type\":\"MultiLineString\",\"coordinates\":[")
        for (k, line) in lines.enumerated() {
            if control.isCancelled { break }
            if k > 0 { out.append(byte: UInt8(ascii: ",")) }
            out.append(positions: line.points, closing: false, decimals: line.decimals)
        }
        out.append(lines.count == 1 ? "}" : "]}")
        return out.finish()
    }
}

/// Builds a JSON properties object member by member.
struct JSONProperties {
    private var text = JSONText(reserving: 256)
    private var empty = true

    /// Keys are the writer's own plain ASCII names: no escaping needed.
    private mutating func key(_ k: String) {
        text.append(byte: empty ? UInt8(ascii: "{") : UInt8(ascii: ","))
        empty = false
        text.append(byte: UInt8(ascii: "\""))
        text.append(k)
        text.append(byte: UInt8(ascii: "\""))
        text.append(byte: UInt8(ascii: ":"))
    }

    package mutating func add(_ k: String, _ v: Double?) { key(k); text.append(number: v) }
    package mutating func add(_ k: String, _ v: Int) { key(k); text.append(fixed: Int64(v), decimals: 0) }
    package mutating func add(_ k: String, _ v: String) { key(k); text.append(quoted: v) }

    package var json: String { empty ? "{}" : text.string + "}" }
}
