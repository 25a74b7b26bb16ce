import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Reads a GeoTIFF (or plain TIFF, or BigTIFF) into a ``RasterGrid``: the
/// first band of the full-resolution image, its north-up georeferencing
/// (ModelPixelScale + ModelTiepoint, or a ModelTransformation without
/// rotation), its NoData (GDAL_NODATA), its unit (GDAL_METADATA) and its CRS
/// (GeoKeys).
enum GeoTIFFReader {
    package static func read(_ data: [UInt8], name: String) throws -> RasterGrid {
        let d = try TIFFDirectory(data: data, name: name)
        let image = try TIFFImage(d)
        let keys: GeoKeys
        if let directory = d.integers(34735) {
            keys = try GeoKeys(directory: directory, doubles: d.doubles(34736) ?? [], ascii: d.text(34737) ?? "")
        } else {
            keys = GeoKeys()
        }
        // Where pixel (0, 0)'s corner is, and the step per column and row.
        var originX = 0.0, originY = 0.0, stepX = 1.0, stepY = 1.0
        if let m = d.doubles(34264), m.count >= 16 {
            let scale = max(abs(m[0]), abs(m[5]))
            guard abs(m[1]) <= 1e-12 * scale, abs(m[4]) <= 1e-12 * scale else {
                throw RasterCodecError(
                    "\(name): the geotransform is rotated or sheared (ModelTransformation \(m[0]), \(m[1]), \(m[4]), \(m[5])); only north-up rasters can be contoured (gdalwarp it first)"
                )
            }
            originX = m[3]; originY = m[7]; stepX = m[0]; stepY = m[5]
        } else if let s = d.doubles(33550), s.count >= 2, let t = d.doubles(33922), t.count >= 6 {
            stepX = s[0]; stepY = -s[1]
            originX = t[3] - t[0] * stepX
            originY = t[4] - t[1] * stepY
        }
        guard stepX.isFinite, stepY.isFinite, originX.isFinite, originY.isFinite, stepX != 0, stepY != 0 else {
            throw RasterCodecError("\(name): the pixel size is zero or not a number")
        }
        if keys.short(GeoKeys.rasterType) == 2 {
            // PixelIsPoint: the tiepoint is a pixel's centre.
            originX -= stepX / 2
            originY -= stepY / 2
        }
        let nodata = d.text(42113).flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        var units: String?
        var radius: Double?
        if let xml = d.text(42112) {
            let m = GDALMetadata.parse(xml)
            units = m.unit ?? m.items["UNITS"]
            radius = m.items["RADIUS"].flatMap { Double($0.split(separator: " ").first ?? "") }
        }
        let reference = try reference(keys, name: name)
        var raster = try RasterAssembly.grid(
            values: image.values, width: image.width, height: image.height,
            originX: originX, originY: originY, stepX: stepX, stepY: stepY,
            nodata: nodata, reference: reference, units: units, radius: radius, name: name)
        raster.bands = image.bands
        return raster
    }

    /// The CRS the keys describe.
    package static func reference(_ keys: GeoKeys, name: String) throws -> RasterGrid.Reference {
        guard let model = keys.short(GeoKeys.modelType) else { return .none }
        let citation: String = {
            for key in [GeoKeys.projCitation, GeoKeys.citation, GeoKeys.geogCitation] {
                if case .text(let s)? = keys[key], !s.isEmpty { return s }
            }
            return ""
        }()
        if model == 2 {
            let code = keys.short(GeoKeys.geographicType) ?? 0
            if code == 4326 { return .known(.epsg(4326)) }
            return .unsupported(
                code == Int(GeoKeys.userDefined) || code == 0
                    ? "a user-defined geographic CRS\(citation.isEmpty ? "" : " (\(citation))")" : "EPSG:\(code)")
        }
        guard model == 1 else { return .unsupported("model type \(model)") }
        let code = keys.short(GeoKeys.projectedType) ?? Int(GeoKeys.userDefined)
        if code != Int(GeoKeys.userDefined) {
            if code == 3857 || UTMProjection(epsg: code) != nil { return .known(.epsg(code)) }
            return .unsupported("EPSG:\(code)\(citation.isEmpty ? "" : " (\(citation))")")
        }
        // User-defined: the package's own CRSs are spheres of the authalic radius.
        let a = keys.double(GeoKeys.semiMajor), b = keys.double(GeoKeys.semiMinor) ?? a
        let sphere =
            a.map { abs($0 - PlaneProjection.authalicRadius) < 0.5 } == true
            && b.map { abs($0 - PlaneProjection.authalicRadius) < 0.5 } == true
        let fe = keys.double(GeoKeys.falseEasting) ?? 0, fn = keys.double(GeoKeys.falseNorthing) ?? 0
        let lat = keys.double(GeoKeys.centerLat) ?? keys.double(GeoKeys.natOriginLat) ?? 0
        let lon = keys.double(GeoKeys.centerLong) ?? keys.double(GeoKeys.natOriginLong) ?? 0
        let transform = keys.short(GeoKeys.coordTransform) ?? 0
        if sphere && fe == 0 && fn == 0 {
            if transform == Int(GeoKeys.lambertAzimEqualArea) {
                return .known(.lambertAzimuthalEqualArea(centreLatitude: lat, centreLongitude: lon))
            }
            if transform == Int(GeoKeys.equirectangularTransform),
                (keys.double(GeoKeys.stdParallel1) ?? lat) == lat
            {
                return .known(.equirectangular(centreLatitude: lat, centreLongitude: lon))
            }
        }
        let what =
            citation.isEmpty ? "a user-defined projected CRS (coordinate transformation \(transform))" : "'\(citation)'"
        return .unsupported(what)
    }
}

/// Turns a top-down raster and its georeferencing into a ``RasterGrid``.
enum RasterAssembly {
    /// Refuses columns whose centres span more than a whole turn of
    /// longitude (a global grid with a wrap column at each end): two nodes
    /// on one meridian make bands that overlap themselves once written in
    /// longitude and latitude.
    private static func checkTurn(degrees span: Double, crs: String, name: String) throws {
        // A hair over 360° is rounding of metres to degrees, not a column.
        guard span <= 360 + 1e-9 else {
            throw RasterCodecError(
                "\(name): its columns span \(GridEncoding.number(span))° of longitude, more than 360°, in \(crs); drop the repeated columns (gdal_translate -srcwin)"
            )
        }
    }

    /// The longitude, in degrees, that a web mercator raster's columns span.
    private static func mercatorDegrees(_ geometry: GridGeometry) -> Double {
        geometry.dx * Double(geometry.columns - 1) / PlaneProjection.mercatorRadius * 180 / .pi
    }

    /// The plane a raster's geometry lies in, from its CRS: longitude and
    /// latitude become metres of an equirectangular plane on the equator (a
    /// linear map, so the contours are those of the degrees grid); the
    /// package's own CRSs and web mercator their projections; anything else
    /// stays planar.
    ///
    /// - Throws: ``RasterCodecError`` when a longitude/latitude raster's
    ///   rows pass the poles (latitudes beyond ±90° are no place on Earth),
    ///   or when a longitude/latitude or web mercator raster's columns
    ///   span more than 360°.
    package static func plane(
        _ geometry: GridGeometry, reference: RasterGrid.Reference,
        name: String
    ) throws -> (GridGeometry, PlaneProjection) {
        switch reference {
        case .known(.epsg(4326)):
            let south = geometry.y0, north = geometry.y0 + geometry.dy * Double(geometry.rows - 1)
            guard south >= -90, north <= 90 else {
                let past = north > 90 ? north : south
                throw RasterCodecError(
                    "\(name): its rows reach latitude \(GridEncoding.number(past))°, past the pole, in longitude/latitude (EPSG:4326); is the CRS right?"
                )
            }
            try checkTurn(
                degrees: geometry.dx * Double(geometry.columns - 1), crs: "longitude/latitude (EPSG:4326)", name: name)
            let centreLongitude = geometry.x0 + geometry.dx * Double(geometry.columns - 1) / 2
            let projection = PlaneProjection(
                kind: .equirectangular, centreLatitude: 0, centreLongitude: centreLongitude)
            let m = PlaneProjection.authalicRadius * .pi / 180
            return (
                GridGeometry(
                    columns: geometry.columns, rows: geometry.rows,
                    x0: (geometry.x0 - projection.centreLongitude) * m,
                    y0: geometry.y0 * m, dx: geometry.dx * m, dy: geometry.dy * m), projection
            )
        case .known(.epsg(3857)):
            try checkTurn(degrees: mercatorDegrees(geometry), crs: "web mercator (EPSG:3857)", name: name)
            return (geometry, PlaneProjection(kind: .webMercator))
        case .known(.webMercator(let lon)):
            try checkTurn(degrees: mercatorDegrees(geometry), crs: "web mercator", name: name)
            return (geometry, PlaneProjection(kind: .webMercator, centreLongitude: lon))
        case let .known(.lambertAzimuthalEqualArea(lat, lon)):
            return (geometry, PlaneProjection(kind: .equalArea, centreLatitude: lat, centreLongitude: lon))
        case let .known(.equirectangular(lat, lon)):
            return (geometry, PlaneProjection(kind: .equirectangular, centreLatitude: lat, centreLongitude: lon))
        default:
            return (geometry, PlaneProjection(kind: .planar))
        }
    }

    package static func grid(
        values: [Double], width: Int, height: Int, originX: Double, originY: Double,
        stepX: Double, stepY: Double, nodata: Double?, reference: RasterGrid.Reference,
        units: String?, radius: Double?, name: String
    ) throws -> RasterGrid {
        guard width >= 2, height >= 2 else {
            throw RasterCodecError("\(name): \(width) × \(height) pixels is too small to contour (2 × 2 at least)")
        }
        guard stepX > 0 else {
            throw RasterCodecError(
                "\(name): columns run westward (pixel width \(stepX)); only north-up rasters can be contoured")
        }
        // Grid row 0 is the lowest y: flip north-up rasters.
        let northUp = stepY < 0
        var v = [Double](repeating: .nan, count: width * height)
        for r in 0..<height {
            let source = (northUp ? height - 1 - r : r) * width
            for c in 0..<width {
                let x = values[source + c]
                v[r * width + c] = (nodata.map { x == $0 || ($0.isNaN && x.isNaN) } ?? false) || !x.isFinite ? .nan : x
            }
        }
        let dy = abs(stepY)
        let lowestCentreY = northUp ? originY + stepY * (Double(height) - 0.5) : originY + stepY / 2
        let (geometry, projection) = try plane(
            GridGeometry(
                columns: width, rows: height, x0: originX + stepX / 2,
                y0: lowestCentreY, dx: stepX, dy: dy),
            reference: reference, name: name)
        let grid = DensityGrid(
            geometry: geometry, values: v, projection: projection,
            radius: radius ?? 3 * max(geometry.dx, geometry.dy), estimator: .density,
            units: units ?? "")
        return RasterGrid(grid: grid, reference: reference, units: units)
    }
}
