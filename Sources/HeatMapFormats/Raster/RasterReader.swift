import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Reads rasters for contouring: GeoTIFF (and plain TIFF, BigTIFF), ESRI
/// ASCII grids (with the `.prj` beside them), and the JSON grid of
/// ``GridEncoding/json(_:crs:)``.
///
/// ```swift
/// let raster = try RasterReader.read(path: "dem.tif")
/// let contours = try HeatMapContours.compute(from: raster.grid, configuration: .init(contourLevels: 8))
/// ```
public enum RasterReader {
    /// The raster formats read.
    public enum Format: String, Sendable, Hashable {
        case geotiff, asc, json
    }

    /// The format of a file from its first bytes and name, nil when it is
    /// none of them (one sniffing rule for every input: points, cells tables and rasters).
    public static func format(of head: [UInt8], name: String) -> Format? {
        switch head.withUnsafeBufferPointer({ InputKind.sniff($0, name: name) }) {
        case .geotiff: .geotiff
        case .asciiGrid: .asc
        case .jsonGrid: .json
        case .csv, .geojson, .cells: nil
        }
    }

    /// The text of the `.prj` beside an ESRI grid's `path`, nil when there is none.
    package static func prj(besides path: String) -> String? {
        let prjPath = (path as NSString).deletingPathExtension + ".prj"
        return FileManager.default.contents(atPath: prjPath).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Reads the raster at `path` (for an ESRI ASCII grid, also the `.prj` beside it).
    /// - Throws: ``RasterCodecError`` (one line naming the file and what is wrong).
    public static func read(path: String) throws -> RasterGrid {
        let name = (path as NSString).lastPathComponent
        let data: [UInt8]
        do {
            // Through read(2): a pipe or /dev/fd/N is read like a file.
            data = try ByteSource(path: path).readToEnd()
        } catch let e as InputError {
            throw RasterCodecError("\(path): cannot be read (\(e.message))")
        }
        return try read(data, name: name, prj: prj(besides: path))
    }

    /// Reads a raster from its bytes; `prj` is the WKT of an ESRI grid's `.prj`.
    public static func read(_ data: [UInt8], name: String, prj: String? = nil) throws -> RasterGrid {
        switch format(of: Array(data.prefix(4096)), name: name) {
        case .geotiff?: return try GeoTIFFReader.read(data, name: name)
        case .asc?: return try ASCIIGridReader.read(data, name: name, prj: prj)
        case .json?:
            let grid: DensityGrid
            do { grid = try GridEncoding.decodeJSON(Data(data)) } catch let e as GridEncoding.DecodingError {
                throw RasterCodecError("\(name): \(e.description)")
            }
            var reference: RasterGrid.Reference = RasterCRS.of(grid.projection).map { .known($0) } ?? .none
            let object =
                grid.projection.kind == .planar
                ? (try? JSONSerialization.jsonObject(with: Data(data))) as? [String: Any] : nil
            if let object, object["projection"] == nil, object["crs"] == nil {
                // Without either, metres would be read as plain x/y and
                // written where degrees are expected.
                throw RasterCodecError(
                    "\(name): a JSON grid without 'projection' or 'crs' (add \"projection\":{\"name\":\"planar\"} if its numbers are plain x/y)"
                )
            }
            if let object, let crs = object["crs"] as? String {
                // No `projection` member: the CRS says what plane the
                // numbers lie in, so they are not mistaken for degrees.
                reference = ProjectionText.proj(crs)
                var placed = grid
                (placed.geometry, placed.projection) = try RasterAssembly.plane(
                    grid.geometry, reference: reference,
                    name: name)
                return RasterGrid(grid: placed, reference: reference, units: grid.units)
            }
            return RasterGrid(grid: grid, reference: reference, units: grid.units)
        case nil:
            throw RasterCodecError("\(name): not a raster this tool reads (GeoTIFF, ESRI ASCII grid, JSON grid)")
        }
    }
}
