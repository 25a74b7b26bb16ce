import Foundation
import HeatMap

/// `--radius`: a length, or a rule that measures one from the data.
enum RadiusChoice: Sendable, Equatable {
    case rule(Bandwidth)
    /// Metres, or planar units.
    case length(Double)

    static func read(_ text: String) throws -> RadiusChoice {
        switch text.lowercased() {
        case "auto": return .rule(.auto)
        case "scott": return .rule(.scott)
        case "silverman": return .rule(.silverman)
        case "arcgis": return .rule(.arcgis)
        default:
            guard let r = ArgumentValues.length(text) else {
                throw ValueRefusal.because(
                    "expected a length (metres, or planar units) or auto, scott, silverman, arcgis")
            }
            guard r.isFinite, r > 0 else { throw ValueRefusal.because("expected a length > 0") }
            return .length(r)
        }
    }
}

/// `--basemap`: one layer of the stack.
enum BasemapLayer: Sendable, Equatable {
    case none
    case world
    case file(String)

    static func read(_ text: String) -> BasemapLayer {
        switch text.lowercased() {
        case "none": return .none
        case "world": return .world
        default: return .file(text)
        }
    }
}

/// Readers of the values with a grammar of their own.
enum OptionValues {
    static let spacingWords: [(String, LevelSpacing)] = [
        ("auto", .auto), ("linear", .linear), ("log", .logarithmic), ("logarithmic", .logarithmic),
        ("quantile", .quantile), ("nice", .nice)
    ]

    /// `--spacing`: a word, custom:V1,V2,… or probability:P1,P2,….
    static func spacing(_ text: String) throws -> LevelSpacing {
        let lower = text.lowercased()
        if let hit = spacingWords.first(where: { $0.0 == lower }) { return hit.1 }
        func list(_ prefix: String) throws -> [Double] {
            let body = text.dropFirst(prefix.count)
            let parts = body.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard !body.isEmpty else { throw ValueRefusal.because("\(prefix) needs at least one value") }
            return try parts.map { part in
                guard let v = ArgumentValues.number(part), v.isFinite else {
                    throw ValueRefusal.because("'\(part)' is not a finite number")
                }
                return v
            }
        }
        if lower.hasPrefix("custom:") {
            return .custom(try list("custom:"))
        }
        if lower.hasPrefix("probability:") {
            let shares = try list("probability:")
            if let off = shares.first(where: { !($0 > 0 && $0 < 1) }) {
                throw ValueRefusal.because("share \(ArgumentValues.text(off)) is not between 0 and 1")
            }
            return .probability(shares)
        }
        var why = "expected auto, linear, log, quantile, nice, custom:V1,V2,… or probability:P1,P2,…"
        if let guess = suggestion(for: lower, among: spacingWords.map(\.0) + ["custom", "probability"]) {
            why += "; did you mean \(guess)?"
        }
        throw ValueRefusal.because(why)
    }

    /// The word `--spacing` takes for a spacing (for help's default).
    static func word(_ spacing: LevelSpacing) -> String {
        spacingWords.first { $0.1 == spacing }?.0 ?? "\(spacing)"
    }

    /// `--smooth`: none, chaikin or chaikin:N.
    static func smoother(_ text: String) throws -> PolygonSmoother {
        let lower = text.lowercased()
        if lower == "none" { return PolygonSmoother.none }
        if lower == "chaikin" { return .chaikin(iterations: 2) }
        if lower.hasPrefix("chaikin:"), let n = Int(lower.dropFirst("chaikin:".count)) {
            guard (0...8).contains(n) else { throw ValueRefusal.because("passes must be 0...8") }
            return n == 0 ? PolygonSmoother.none : .chaikin(iterations: n)
        }
        throw ValueRefusal.because("expected none, chaikin or chaikin:N")
    }

    /// The word `--smooth` takes for a smoother (for help's default).
    static func word(_ smoother: PolygonSmoother) -> String {
        if case .chaikin(let n) = smoother { return "chaikin:\(n)" }
        return "none"
    }

    /// `--gradient`, in the library's own words.
    /// `--scale`: one scale for bin pictures and bin GeoJSON fills.
    static func scale(_ text: String) throws -> HeatMapScaleType {
        guard let scale = HeatMapScaleType(name: text) else {
            throw ValueRefusal.because("expected linear, log, symlog or symlog:SLOPE")
        }
        return scale
    }

    static func gradient(_ text: String) throws -> HeatMapGradient {
        do {
            return try HeatMapGradient(parsing: text)
        } catch {
            throw ValueRefusal.message("bad value for --gradient: \(error)")
        }
    }

    /// `--render`: filled, isolines or both.
    static func renderMode(_ text: String) throws -> HeatMapRenderMode {
        guard let mode = HeatMapRenderMode(name: text) else {
            throw ValueRefusal.because("expected filled, isolines or both")
        }
        return mode
    }

    /// `--simplify`: `.some(nil)` for auto, else the tolerance.
    static func simplification(_ text: String) throws -> Double?? {
        if text.lowercased() == "auto" { return .some(nil) }
        guard let t = ArgumentValues.length(text), t.isFinite, t >= 0 else {
            throw ValueRefusal.because("expected a length >= 0 (metres, or planar units) or auto")
        }
        return .some(t)
    }

    /// `--crs EPSG:N`.
    static func crs(_ text: String) throws -> RasterCRS {
        let upper = text.uppercased()
        guard upper.hasPrefix("EPSG:"), let code = Int(upper.dropFirst(5)), code > 0, code < 1_000_000 else {
            throw ValueRefusal.because("expected EPSG:N, e.g. EPSG:32633")
        }
        return .epsg(code)
    }

    /// `--at LAT,LON` (Y,X for planar input).
    static func at(_ text: String, _ context: ValueContext) throws -> HitQuery {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, let lat = ArgumentValues.number(parts[0]), let lon = ArgumentValues.number(parts[1]),
            lat.isFinite, lon.isFinite
        else {
            throw ValueRefusal.because(context.geographic ? "expected LAT,LON in degrees" : "expected Y,X numbers")
        }
        if context.geographic {
            guard (-90...90).contains(lat) else { throw ValueRefusal.because("latitude outside [-90, 90]") }
            guard lon >= -180 && lon < 360 else { throw ValueRefusal.because("longitude outside [-180, 360)") }
        }
        return HitQuery(latitude: lat, longitude: lon)
    }

    /// `--size`: kilometres for geographic input ("800m" and "2km" read
    /// too), data units for planar input.
    static func binSize(_ text: String, _ context: ValueContext) throws -> Double {
        let lower = text.lowercased()
        let value =
            context.geographic && lower.hasSuffix("m") && !lower.hasSuffix("km")
            ? ArgumentValues.length(text).map { $0 / 1000 }
            : ArgumentValues.number(lower.hasSuffix("km") ? String(lower.dropLast(2)) : text)
        guard let v = value, v.isFinite, v > 0 else { throw ValueRefusal.because("expected a size > 0") }
        return v
    }
}

/// A query point of `contours hit --at`.
struct HitQuery: Sendable, Equatable {
    /// Degrees, or y for planar input.
    var latitude: Double
    /// Degrees, or x for planar input.
    var longitude: Double
}
