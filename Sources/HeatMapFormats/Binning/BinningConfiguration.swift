import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// How points are binned (docs/binning.md, `contours bin`).
public struct BinningConfiguration: Sendable, Hashable {
    /// Hexagons or squares.
    public var shape: BinShape
    /// Hexagon centre-to-corner radius R or square side S: kilometres for
    /// geographic input, data units for `.planar`.
    public var size: Double
    /// Pointy-top or flat-top hexagons (ignored for squares).
    public var orientation: HexOrientation
    /// The binning plane: `.equalArea` (default; cells of one size have
    /// equal ground areas) or `.planar` (bin the given x/y directly).
    public var projection: MapProjection
    /// Also emit every empty cell covering the data's box (a honeycomb with zeros).
    public var includeEmpty: Bool
    /// The H3 resolution (0...15) for `shape` `.h3`; ignored otherwise.
    public var h3Resolution: Int = 7
    /// The most cells ``includeEmpty`` may produce before binning refuses
    /// (a tiny size over a big box would otherwise exhaust memory).
    public var maximumCells: Int

    /// Creates a configuration.
    public init(
        shape: BinShape = .hexagon, size: Double, orientation: HexOrientation = .pointy,
        projection: MapProjection = .equalArea, includeEmpty: Bool = false,
        maximumCells: Int = 5_000_000
    ) {
        self.shape = shape
        self.size = size
        self.orientation = orientation
        self.projection = projection
        self.includeEmpty = includeEmpty
        self.maximumCells = maximumCells
    }

    /// The size in plane units: metres (size × 1000) for geographic
    /// projections, the size itself for `.planar`.
    public var planeSize: Double { projection == .planar ? size : size * 1000 }

    /// The grid in the binning plane.
    /// - Throws: ``HeatMapError/invalidConfiguration(_:)`` for a size that
    ///   is not a finite number > 0, or for `.h3` (cells on the sphere).
    public func grid() throws -> BinGrid {
        guard size.isFinite, size > 0 else {
            throw HeatMapError.invalidConfiguration("bin size must be a finite number > 0 (got \(size))")
        }
        switch shape {
        case .hexagon: return .hexagon(try HexGrid(radius: planeSize, orientation: orientation))
        case .square: return .square(try SquareGrid(side: planeSize))
        case .h3:
            throw HeatMapError.invalidConfiguration("H3 cells are not a plane grid: bin them with HeatMapBinning.binH3")
        }
    }
}
