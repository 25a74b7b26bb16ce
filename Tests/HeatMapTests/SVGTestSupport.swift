import Foundation

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Helpers shared by the rendering suites: fixtures with known geometry and
/// an XML view of the SVG output.
enum RenderFixtures {
    /// A planar 10 × 10 grid (values unused by the renderer).
    static func planarGrid(units: String = "per square unit") -> DensityGrid {
        let g = GridGeometry(columns: 10, rows: 10, x0: 0.5, y0: 0.5, dx: 1, dy: 1)
        return DensityGrid(
            geometry: g, values: Array(repeating: 0, count: g.count),
            projection: PlaneProjection(kind: .planar), radius: 1, estimator: .density, units: units)
    }

    static func square(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, clockwise: Bool = false) -> [PlanePoint]
    {
        let ccw = [
            PlanePoint(x: x0, y: y0), PlanePoint(x: x1, y: y0), PlanePoint(x: x1, y: y1), PlanePoint(x: x0, y: y1)
        ]
        return clockwise ? ccw.reversed() : ccw
    }

    /// Two levels: level 0 covers 0…10² minus a hole 3…7², level 1 fills the hole.
    static func twoLevelSet(thresholds: [Double] = [0.5, 1]) -> ContourSet {
        let outer = square(0, 0, 10, 10), inner = square(3, 3, 7, 7)
        let band0 = PlanePolygon(exterior: outer, holes: [square(3, 3, 7, 7, clockwise: true)])
        let band1 = PlanePolygon(exterior: inner)
        return ContourSet(
            thresholds: thresholds,
            levels: [[PlanePolygon(exterior: outer)], [band1]],
            bands: [[band0], [band1]],
            isolines: [[outer], [inner]])
    }

    static func contours(
        _ set: ContourSet = twoLevelSet(), units: String = "per square unit",
        configuration: HeatMapConfiguration = HeatMapConfiguration(projection: .planar)
    ) -> HeatMapContours {
        HeatMapContours(
            grid: planarGrid(units: units), contourSet: set, configuration: configuration,
            summary: InputSummary())
    }

    /// A pointy-top hexagon of radius r centred at (cx, cy), counter-clockwise.
    static func hexagon(_ cx: Double, _ cy: Double, _ r: Double) -> [PlanePoint] {
        (0..<6).map { k in
            let a = Double.pi / 180 * (60 * Double(k) - 30)
            return PlanePoint(x: cx + r * cos(a), y: cy + r * sin(a))
        }
    }
}

/// The parsed SVG (or the SVG inside an HTML page) and queries on it.
struct ParsedSVG {
    let document: XMLDocument

    init(_ svg: String) throws {
        document = try XMLDocument(xmlString: svg)
    }

    var root: XMLElement? { document.rootElement() }

    /// Every element with the given local name, in document order.
    func elements(_ name: String) -> [XMLElement] {
        ((try? document.nodes(forXPath: "//*[local-name()='\(name)']")) ?? []).compactMap { $0 as? XMLElement }
    }

    /// Elements with the given local name whose class is `cls`.
    func elements(_ name: String, class cls: String) -> [XMLElement] {
        elements(name).filter { $0.attr("class") == cls }
    }

    /// The texts of all `<text>` elements.
    var texts: [String] { elements("text").map { $0.stringValue ?? "" } }
}

extension XMLElement {
    /// An attribute's value. (Looked up in `attributes`: on Linux,
    /// `attribute(forName:)` misses attributes of namespaced elements.)
    func attr(_ name: String) -> String? {
        attributes?.first { $0.name == name }?.stringValue
    }
}

/// The numbers of a path's `d`, as (x, y) pairs per subpath.
func subpaths(_ d: String) -> [[(x: Double, y: Double)]] {
    var out: [[(x: Double, y: Double)]] = []
    var numbers: [Double] = []
    var token = ""
    func flushToken() {
        if let v = Double(token) { numbers.append(v) }
        token = ""
    }
    func flushPath() {
        flushToken()
        if !numbers.isEmpty {
            out.append(stride(from: 0, to: numbers.count - 1, by: 2).map { (numbers[$0], numbers[$0 + 1]) })
        }
        numbers = []
    }
    for ch in d {
        switch ch {
        case "M": flushPath()
        case "L", " ", ",": flushToken()
        case "Z": flushPath()
        case "-":
            flushToken()
            token = "-"
        default: token.append(ch)
        }
    }
    flushPath()
    return out
}
