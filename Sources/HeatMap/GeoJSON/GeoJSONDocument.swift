import Foundation

/// A FeatureCollection being assembled: geometry already rounded, so the
/// `bbox` is known before anything is written.
struct GeoJSONDocument {
    /// A line on the decimal grid.
    struct FixedLine {
        var points: [FixedPoint]
        var decimals: Int
    }

    enum Geometry {
        case polygons([PrecisionRounding.Polygon])
        case lines([FixedLine])
    }

    struct Feature {
        var geometry: Geometry
        /// The properties object, already JSON.
        var properties: String
    }

    /// Whether positions are longitude/latitude (bbox may cross ±180°).
    let geographic: Bool
    private(set) var features: [Feature] = []
    /// The [west, east] longitude (or x) range of every part, and the y range.
    private var xRanges: [(Double, Double)] = []
    private var yLow = Double.infinity, yHigh = -Double.infinity

    init(geographic: Bool) {
        self.geographic = geographic
    }

    /// Adds a feature; one without geometry is left out.
    mutating func add(_ geometry: Geometry, properties: String) {
        switch geometry {
        case .polygons(let polygons):
            guard !polygons.isEmpty else { return }
            for polygon in polygons { if let ext = polygon.first { extend(ext.points, decimals: ext.decimals) } }
        case .lines(let lines):
            guard !lines.isEmpty else { return }
            for line in lines { extend(line.points, decimals: line.decimals) }
        }
        features.append(Feature(geometry: geometry, properties: properties))
    }

    private mutating func extend(_ points: [FixedPoint], decimals: Int) {
        guard let first = points.first else { return }
        var lo = first.x, hi = first.x, ylo = first.y, yhi = first.y
        for p in points {
            lo = min(lo, p.x); hi = max(hi, p.x); ylo = min(ylo, p.y); yhi = max(yhi, p.y)
        }
        xRanges.append((FixedRing.value(lo, decimals), FixedRing.value(hi, decimals)))
        yLow = min(yLow, FixedRing.value(ylo, decimals))
        yHigh = max(yHigh, FixedRing.value(yhi, decimals))
    }

    /// [west, south, east, north]; for geographic data that crosses ±180°
    /// west > east (RFC 7946 §5.2). Nil without features.
    var bbox: [Double]? {
        guard !xRanges.isEmpty else { return nil }
        let sorted = xRanges.sorted { $0.0 < $1.0 }
        var merged: [(Double, Double)] = []
        for r in sorted {
            if let last = merged.last, r.0 <= last.1 {
                merged[merged.count - 1].1 = max(last.1, r.1)
            } else {
                merged.append(r)
            }
        }
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

    /// The whole FeatureCollection.
    func text(control: ComputeControl = .none) throws -> String {
        var out = JSONText(reserving: 1 << 20)
        out.append("{\"type\":\"FeatureCollection\"")
        if let bbox {
            out.append(",\"bbox\":[")
            for (k, v) in bbox.enumerated() {
                if k > 0 { out.append(byte: UInt8(ascii: ",")) }
                out.append(number: v)
            }
            out.append("]")
        }
        out.append(",\"features\":[")
        for (k, feature) in features.enumerated() {
            if k % 64 == 0 { try control.checkCancellation() }
            out.append(k == 0 ? "\n" : ",\n")
            out.append("{\"type\":\"Feature\",\"properties\":")
            out.append(feature.properties)
            out.append(",\"geometry\":")
            write(feature.geometry, to: &out)
            out.append("}")
        }
        out.append("\n]}\n")
        return out.string
    }

    private func write(_ geometry: Geometry, to out: inout JSONText) {
        switch geometry {
        case .polygons(let polygons):
            out.append(polygons.count == 1 ? "{\"type\":\"Polygon\",\"coordinates\":" : "{\"type\":\"MultiPolygon\",\"coordinates\":[")
            for (k, polygon) in polygons.enumerated() {
                if k > 0 { out.append(byte: UInt8(ascii: ",")) }
                out.append(byte: UInt8(ascii: "["))
                for (r, ring) in polygon.enumerated() {
                    if r > 0 { out.append(byte: UInt8(ascii: ",")) }
                    // Closed in the file: the first position again at the end.
                    writePositions(ring.points + [ring.points[0]], decimals: ring.decimals, to: &out)
                }
                out.append(byte: UInt8(ascii: "]"))
            }
            out.append(polygons.count == 1 ? "}" : "]}")
        case .lines(let lines):
            out.append(lines.count == 1 ? "{\"type\":\"LineString\",\"coordinates\":" : "{\"type\":\"MultiLineString\",\"coordinates\":[")
            for (k, line) in lines.enumerated() {
                if k > 0 { out.append(byte: UInt8(ascii: ",")) }
                writePositions(line.points, decimals: line.decimals, to: &out)
            }
            out.append(lines.count == 1 ? "}" : "]}")
        }
    }

    private func writePositions(_ points: [FixedPoint], decimals: Int, to out: inout JSONText) {
        out.append(byte: UInt8(ascii: "["))
        for (k, p) in points.enumerated() {
            if k > 0 { out.append(byte: UInt8(ascii: ",")) }
            out.append(byte: UInt8(ascii: "["))
            out.append(fixed: p.x, decimals: decimals)
            out.append(byte: UInt8(ascii: ","))
            out.append(fixed: p.y, decimals: decimals)
            out.append(byte: UInt8(ascii: "]"))
        }
        out.append(byte: UInt8(ascii: "]"))
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

    mutating func add(_ k: String, _ v: Double?) { key(k); text.append(number: v) }
    mutating func add(_ k: String, _ v: Int) { key(k); text.append(fixed: Int64(v), decimals: 0) }
    mutating func add(_ k: String, _ v: String) { key(k); text.append(quoted: v) }

    var json: String { empty ? "{}" : text.string + "}" }
}
