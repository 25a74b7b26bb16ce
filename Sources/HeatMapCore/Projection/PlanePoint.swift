import Foundation

/// A point in the projection plane: metres east/north of the projection's
/// centre for geographic data, or the data's own x/y for planar data.
public struct PlanePoint: Sendable, Hashable, Codable {
    /// Easting (metres, or planar x).
    public var x: Double
    /// Northing (metres, or planar y).
    public var y: Double

    /// Creates a plane point.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// An axis-aligned box in the projection plane.
public struct PlaneBox: Sendable, Hashable, Codable {
    /// Smallest x.
    public var minX: Double
    /// Smallest y.
    public var minY: Double
    /// Largest x.
    public var maxX: Double
    /// Largest y.
    public var maxY: Double

    /// Creates a box from its extreme coordinates.
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// The empty box, which any point extends.
    public static let empty = PlaneBox(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)

    /// Whether no point has been added.
    public var isEmpty: Bool { minX > maxX || minY > maxY }
    /// maxX − minX.
    public var width: Double { maxX - minX }
    /// maxY − minY.
    public var height: Double { maxY - minY }

    /// Grows the box to hold `p`.
    public mutating func formUnion(_ p: PlanePoint) {
        minX = min(minX, p.x); maxX = max(maxX, p.x)
        minY = min(minY, p.y); maxY = max(maxY, p.y)
    }

    /// Grows the box to hold `other`.
    public mutating func formUnion(_ other: PlaneBox) {
        minX = min(minX, other.minX); maxX = max(maxX, other.maxX)
        minY = min(minY, other.minY); maxY = max(maxY, other.maxY)
    }

    /// Whether `p` lies inside or on the box.
    public func contains(_ p: PlanePoint) -> Bool {
        p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY
    }

    /// Whether the two boxes share any point.
    public func intersects(_ other: PlaneBox) -> Bool {
        minX <= other.maxX && other.minX <= maxX && minY <= other.maxY && other.minY <= maxY
    }
}
