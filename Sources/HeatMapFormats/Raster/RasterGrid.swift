import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// A raster read from a file (``RasterReader``): its values as a
/// ``DensityGrid``, and what its coordinates are.
///
/// The grid's projection is one the package can unproject, whenever the
/// file's CRS allows: EPSG:4326 becomes an equirectangular plane centred
/// on the equator (a linear rescaling of longitude and latitude, so contours
/// are the same), EPSG:3857 web mercator, the package's own CRSs their
/// projections. UTM zones stay planar in metres: ``lonLat(_:)`` maps
/// contours from them to the equal-area plane. Rasters without a CRS, or
/// with one the package does not know, are planar in the file's units.
public struct RasterGrid: Sendable {
    /// What the file says about its coordinates.
    public enum Reference: Sendable, Hashable {
        /// No CRS (pixel or file coordinates).
        case none
        /// A CRS the package can map to longitude and latitude.
        case known(RasterCRS)
        /// A CRS the package cannot place on the globe, described as the file states it.
        case unsupported(String)
    }

    /// The values, row 0 the lowest y; NaN where the file has NoData.
    public var grid: DensityGrid
    /// The file's CRS.
    public var reference: Reference
    /// The unit of the values, when the file names one.
    public var units: String?
    /// The bands of the file (the grid is the first).
    package var bands = 1

    /// Whether contours of this grid can be written in longitude/latitude.
    public var isGeographic: Bool {
        grid.projection.isGeographic || utm != nil
    }

    /// The UTM zone of the grid's plane, if that is what it is.
    var utm: UTMProjection? {
        if case .known(.epsg(let code)) = reference { return UTMProjection(epsg: code) }
        return nil
    }

    /// The contours of a UTM grid moved into the equal-area plane centred
    /// on the grid, and that projection; other grids' contours unchanged
    /// with their own projection. O(vertices).
    public func lonLat(_ set: ContourSet) -> (ContourSet, PlaneProjection) {
        guard let utm else { return (set, grid.projection) }
        let g = grid.geometry
        let centre = utm.inverse(
            PlanePoint(
                x: g.x0 + g.dx * Double(g.columns - 1) / 2,
                y: g.y0 + g.dy * Double(g.rows - 1) / 2))
        let target = PlaneProjection(
            kind: .equalArea, centreLatitude: centre.latitude, centreLongitude: centre.longitude)
        func move(_ p: PlanePoint) -> PlanePoint { target.project(utm.inverse(p)) }
        func moveRing(_ r: [PlanePoint]) -> [PlanePoint] { r.map(move) }
        func movePolygon(_ p: PlanePolygon) -> PlanePolygon {
            PlanePolygon(exterior: moveRing(p.exterior), holes: p.holes.map(moveRing))
        }
        let moved = ContourSet(
            thresholds: set.thresholds,
            levels: set.levels.map { $0.map(movePolygon) },
            bands: set.bands.map { $0.map(movePolygon) },
            isolines: set.isolines.map { $0.map(moveRing) })
        return (moved, target)
    }
}
