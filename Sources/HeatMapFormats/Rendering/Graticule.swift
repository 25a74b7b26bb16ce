import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Lines of equal latitude and longitude over a geographic picture, at a
/// round step that gives a few lines across the view, and their labels
/// where they meet the plot's left and top edges (the bottom holds the
/// scale bar).
struct Graticule {
    /// Projected lines (meridians then parallels), clipped later.
    package var lines: [[PlanePoint]] = []
    /// Labels in pixels: text, position, and whether it labels a parallel
    /// (anchored at the left edge) or a meridian (at the top).
    var labels: [(text: String, x: Double, y: Double, parallel: Bool)] = []

    /// The plot's top edge in pixels.
    var topEdge = 0.0

    /// No graticule.
    package init() {}

    static let steps: [Double] = [0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5, 1, 2, 5, 10, 15, 30, 45]

    /// The graticule of the view `t` shows in `projection`'s plane; empty
    /// for planar pictures.
    package init(projection: PlaneProjection, view t: ViewTransform) {
        guard projection.isGeographic else { return }
        topEdge = t.rect.y
        let box = t.planeBox
        // The view's extent in latitude and in longitude offset from the centre meridian.
        var latLo = 90.0, latHi = -90.0, offLo = 180.0, offHi = -180.0
        let n = 24
        for i in 0...n {
            for j in 0...n where i == 0 || i == n || j == 0 || j == n || (i == n / 2 && j == n / 2) {
                let p = PlanePoint(
                    x: box.minX + box.width * Double(i) / Double(n),
                    y: box.minY + box.height * Double(j) / Double(n))
                let c = projection.unproject(p)
                guard c.latitude.isFinite, c.longitude.isFinite else { continue }
                latLo = min(latLo, c.latitude); latHi = max(latHi, c.latitude)
                let off = LongitudeArc.normalized(c.longitude - projection.centreLongitude)
                offLo = min(offLo, off); offHi = max(offHi, off)
            }
        }
        guard latLo < latHi, offLo < offHi else { return }
        latLo = max(latLo, -89.9); latHi = min(latHi, 89.9)
        let span = max(offHi - offLo, latHi - latLo)
        let step = Graticule.steps.first { span / $0 <= 9 } ?? 90
        let decimals = step >= 1 ? 0 : Int((-log10(step)).rounded(.up)) + (step == 0.25 ? 1 : 0)
        let lonLo = projection.centreLongitude + offLo, lonHi = projection.centreLongitude + offHi
        let samples = 64
        var lon = (lonLo / step).rounded(.up) * step
        // Meridians are labelled along the top or the bottom edge, whichever
        // holds more labels without overlap (they crowd where meridians
        // converge); the bottom's left end is the scale bar's.
        var top: [(String, Double)] = [], bottom: [(String, Double)] = []
        while lon <= lonHi + 1e-9 {
            let line = (0...samples).map { k in
                projection.project(latitude: latLo + (latHi - latLo) * Double(k) / Double(samples), longitude: lon)
            }
            let text = Graticule.degrees(lon, decimals, positive: "E", negative: "W")
            if let x = Graticule.crossing(line, y: box.maxY), x > box.minX, x < box.maxX {
                top.append((text, t.pixel(PlanePoint(x: x, y: box.maxY)).x))
            }
            if let x = Graticule.crossing(line, y: box.minY), x > box.minX, x < box.maxX {
                let px = t.pixel(PlanePoint(x: x, y: box.minY)).x
                if px > t.rect.x + 170 { bottom.append((text, px)) }
            }
            lines.append(line)
            lon += step
        }
        top = Graticule.spaced(top)
        bottom = Graticule.spaced(bottom)
        if bottom.count > top.count {
            labels += bottom.map { ($0.0, $0.1, t.rect.maxY - 5, false) }
        } else {
            labels += top.map { ($0.0, $0.1, t.rect.y + 11, false) }
        }
        var lat = (latLo / step).rounded(.up) * step
        while lat <= latHi + 1e-9 {
            let line = (0...samples).map { k in
                projection.project(latitude: lat, longitude: lonLo + (lonHi - lonLo) * Double(k) / Double(samples))
            }
            // Parallels are labelled clear of the meridian labels above and the scale bar below.
            if let y = Graticule.crossing(line, x: box.minX), y > box.minY, y < box.maxY {
                let py = t.pixel(PlanePoint(x: box.minX, y: y)).y - 3
                if py > t.rect.y + 24, py < t.rect.maxY - 30 {
                    labels.append(
                        (Graticule.degrees(lat, decimals, positive: "N", negative: "S"), t.rect.x + 4, py, true))
                }
            }
            lines.append(line)
            lat += step
        }
    }

    /// The labels left after dropping each that would overlap the one
    /// kept before it (9 px text, 8 px apart), in order along the edge.
    static func spaced(_ labels: [(String, Double)]) -> [(String, Double)] {
        var kept: [(String, Double)] = []
        for label in labels.sorted(by: { $0.1 < $1.1 }) {
            if let last = kept.last {
                let gap = (LegendMetrics.textWidth(last.0, size: 9) + LegendMetrics.textWidth(label.0, size: 9)) / 2 + 8
                if label.1 - last.1 < gap { continue }
            }
            kept.append(label)
        }
        return kept
    }

    /// "30°W", "0°", "12.5°N".
    static func degrees(_ v: Double, _ decimals: Int, positive: String, negative: String) -> String {
        let wrapped = positive == "E" ? LongitudeArc.normalized(v) : v
        let magnitude = NumberText.fixed(abs(wrapped), decimals: decimals)
        if magnitude == "0" || magnitude == "180" { return magnitude + "°" }
        return magnitude + "°" + (wrapped < 0 ? negative : positive)
    }

    /// Where the polyline first crosses the horizontal y (its x), or nil.
    static func crossing(_ line: [PlanePoint], y: Double) -> Double? {
        for (a, b) in zip(line, line.dropFirst()) where (a.y - y) * (b.y - y) <= 0 && a.y != b.y {
            return a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x)
        }
        return nil
    }

    /// Where the polyline first crosses the vertical x (its y), or nil.
    static func crossing(_ line: [PlanePoint], x: Double) -> Double? {
        for (a, b) in zip(line, line.dropFirst()) where (a.x - x) * (b.x - x) <= 0 && a.x != b.x {
            return a.y + (x - a.x) / (b.x - a.x) * (b.y - a.y)
        }
        return nil
    }
}
