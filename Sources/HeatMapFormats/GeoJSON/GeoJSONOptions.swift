import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// What one Feature of a contour export holds.
public enum GeoJSONFeatureGrouping: String, Sendable, Hashable, CaseIterable, Codable {
    /// One Feature per band, level or isoline level, with a MultiPolygon
    /// (or MultiLineString) when it has several parts (default).
    case level
    /// One Feature per polygon (`--feature polygon`).
    case polygon
}

/// Settings of a GeoJSON export (RFC 7946).
public struct GeoJSONOptions: Sendable, Hashable {
    /// Decimals of every position (default 6, about 0.1 m in latitude).
    /// Clamped to 0...15, and to the decimals that the coordinates' size
    /// leaves exact (13 for longitudes and latitudes). A ring that rounding
    /// would make invalid keeps more decimals.
    public var precision: Int
    /// One Feature per band/level, or per polygon.
    public var grouping: GeoJSONFeatureGrouping
    /// Colours of the simplestyle `fill`/`stroke` properties; nil takes the
    /// contours' configured gradient (thermal for bins).
    public var gradient: HeatMapGradient?
    /// Opacity multiplied into `fill-opacity`, 0...1; nil takes the
    /// contours' configured fill opacity (1 for bins).
    public var fillOpacity: Double?
    /// The `stroke` colour; nil strokes each shape in its fill colour.
    public var stroke: HeatMapColor?
    /// How bin values map to the gradient (``HeatMapScaleType/fraction(of:in:)``).
    public var colorScale: HeatMapScaleType
    /// When set, contour features also carry `gdal_contour`'s fields, so
    /// pipelines built on it switch without changes (`--attributes gdal`).
    public var gdalAttributes: GDALContourAttributes?
    /// When set, the collection names its coordinates' CRS in the 2008
    /// GeoJSON `crs` member (e.g. `urn:ogc:def:crs:EPSG::27700`), which GDAL
    /// and QGIS read: for output that is not longitude/latitude.
    public var crsName: String?
    /// When set, the collection names the kernel that made the density:
    /// a `kernel` member {"name", "radius", "values"} (left out for the
    /// default Gaussian density, which every reader assumes).
    public var kernel: GeoJSONKernelMember?

    /// Creates options.
    public init(
        precision: Int = 6, grouping: GeoJSONFeatureGrouping = .level, gradient: HeatMapGradient? = nil,
        fillOpacity: Double? = nil, stroke: HeatMapColor? = nil, colorScale: HeatMapScaleType = .linear
    ) {
        self.precision = precision
        self.grouping = grouping
        self.gradient = gradient
        self.fillOpacity = fillOpacity
        self.stroke = stroke
        self.colorScale = colorScale
    }
}

/// `gdal_contour`'s attribute fields: `amin`/`amax` on bands and levels (as
/// `-p -amin amin -amax amax` names them), `elev` on isolines (`-a elev`).
public struct GDALContourAttributes: Sendable, Hashable {
    /// The grid's largest value: the `amax` of the top band and of levels.
    public var maximum: Double

    /// Creates the fields' settings.
    public init(maximum: Double) { self.maximum = maximum }
}

/// The kernel a GeoJSON collection names (``GeoJSONOptions/kernel``).
public struct GeoJSONKernelMember: Sendable, Hashable {
    public var kernel: DensityKernel
    /// The radius in plane units (metres for geographic input).
    public var radius: Double
    public var values: KernelValues
    /// The points' own radii, when they have them (``DensityGrid/pointRadii``):
    /// written as a `radii` member, ``radius`` being then the pilot's or
    /// the plan's.
    public var pointRadii: PointRadii?

    /// The member for `grid`'s kernel, or nil for the default Gaussian
    /// density with one radius.
    public init?(_ grid: DensityGrid) {
        guard grid.kernel != .gaussian || grid.kernelValues != .density || grid.pointRadii != nil else { return nil }
        kernel = grid.kernel
        radius = grid.radius
        values = grid.kernelValues
        pointRadii = grid.pointRadii
    }

    var json: String {
        "{\"name\":\(JSONEscaping.quoted(kernel.name)),\"radius\":\(GridEncoding.number(radius)),\"values\":\"\(values.rawValue)\""
            + (pointRadii.map { ",\"radii\":\(GridEncoding.json($0))" } ?? "") + "}"
    }
}
