import Foundation

/// Why compressed raster data could not be decoded: one line naming the
/// codec and what was wrong.
public struct RasterCodecError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public var description: String

    init(_ description: String) { self.description = description }
}
