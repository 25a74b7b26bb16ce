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

    /// The format of a file from its first bytes and name, nil when it is none of them.
    public static func format(of head: [UInt8], name: String) -> Format? {
        if head.count >= 4, (head[0] == 0x49 && head[1] == 0x49) || (head[0] == 0x4D && head[1] == 0x4D) { return .geotiff }
        let text = String(decoding: head.prefix(4096), as: UTF8.self)
        let trimmed = text.drop { $0.isWhitespace }
        if trimmed.lowercased().hasPrefix("ncols") || trimmed.lowercased().hasPrefix("nrows") { return .asc }
        if trimmed.hasPrefix("{"), text.contains("\"columns\""), text.contains("\"rows\""), !text.contains("\"Feature") { return .json }
        let lower = name.lowercased()
        if lower.hasSuffix(".tif") || lower.hasSuffix(".tiff") { return .geotiff }
        if lower.hasSuffix(".asc") { return .asc }
        return nil
    }

    /// Reads the raster at `path` (for an ESRI ASCII grid, also the `.prj` beside it).
    /// - Throws: ``RasterCodecError`` (one line naming the file and what is wrong).
    public static func read(path: String) throws -> RasterGrid {
        let name = (path as NSString).lastPathComponent
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RasterCodecError("\(path): cannot be read")
        }
        var prj: String?
        let prjPath = (path as NSString).deletingPathExtension + ".prj"
        if let p = FileManager.default.contents(atPath: prjPath) { prj = String(decoding: p, as: UTF8.self) }
        return try read(Array(data), name: name, prj: prj)
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
            if grid.projection.kind == .planar,
               let object = try? JSONSerialization.jsonObject(with: Data(data)) as? [String: Any],
               let crs = object["crs"] as? String {
                reference = ProjectionText.proj(crs)
            }
            return RasterGrid(grid: grid, reference: reference, units: grid.units)
        case nil:
            throw RasterCodecError("\(name): not a raster this tool reads (GeoTIFF, ESRI ASCII grid, JSON grid)")
        }
    }
}
