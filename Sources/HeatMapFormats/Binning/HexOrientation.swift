import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Which way a hexagon grid's cells point.
public enum HexOrientation: String, Sendable, Hashable, CaseIterable, Codable {
    /// A corner at the top: rows of cells along x (the Swift Charts article's layout).
    /// Centre x = R√3 (q + r/2), y = 1.5 R r.
    case pointy
    /// An edge at the top: columns of cells along y.
    /// Centre x = 1.5 R q, y = R√3 (r + q/2).
    case flat
}
