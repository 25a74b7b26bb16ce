import Foundation

/// Why a picture could not be made from the given settings or files.
public enum HeatMapRenderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A gradient's text form is malformed: the text and what is wrong.
    case invalidGradient(String)
    /// A basemap file is not usable GeoJSON: where, and what is wrong.
    case invalidBasemap(String)

    public var description: String {
        switch self {
        case .invalidGradient(let why): return "invalid gradient \(why)"
        case .invalidBasemap(let why): return "invalid basemap: \(why)"
        }
    }
}
