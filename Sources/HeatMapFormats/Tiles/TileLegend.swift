import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// What every tile's features say about their band, the same at every
/// zoom: thresholds (ascending, in `units`), each level's fill colour.
struct TileLegend: Sendable {
    var thresholds: [Double]
    var units: String
    /// "#rrggbb" per level.
    var fills: [String]
    /// Whether tiles carry an `isolines` layer too.
    var isolines: Bool

    init(thresholds: [Double], units: String, gradient: HeatMapGradient, isolines: Bool) {
        self.thresholds = thresholds
        self.units = units
        self.fills = thresholds.indices.map { gradient.color(forLevel: $0, of: thresholds.count).hex }
        self.isolines = isolines
    }

    /// The band a value is in: the number of thresholds at or below it
    /// (0: below every level); NaN is below every level.
    func band(of value: Double) -> Int {
        guard !value.isNaN else { return 0 }
        var lo = 0, hi = thresholds.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if thresholds[mid] <= value { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// A band feature's attributes: level, threshold, upper (not on the
    /// top band), units, fill.
    func attributes(level: Int) -> [(String, VectorTileLayer.Value)] {
        var a: [(String, VectorTileLayer.Value)] = [
            ("level", .unsigned(UInt64(level))),
            ("threshold", .double(thresholds[level]))
        ]
        if level + 1 < thresholds.count { a.append(("upper", .double(thresholds[level + 1]))) }
        a.append(("units", .string(units)))
        a.append(("fill", .string(fills[level])))
        return a
    }
}
