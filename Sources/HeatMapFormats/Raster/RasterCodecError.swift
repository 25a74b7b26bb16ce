import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// Why compressed raster data could not be decoded: one line naming the
/// codec and what was wrong.
public struct RasterCodecError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public var description: String

    package init(_ description: String) { self.description = description }
}
