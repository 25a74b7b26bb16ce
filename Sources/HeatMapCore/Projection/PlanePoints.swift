import Foundation

/// Points already in the projection plane, as parallel arrays (structure of
/// arrays, so the density and binning loops stream through memory).
public struct PlanePoints: Sendable, Hashable {
    /// x of each point (metres or planar units).
    public var x: [Double]
    /// y of each point.
    public var y: [Double]
    /// Kernel weight of each point (≥ 0).
    public var weight: [Double]
    /// Measured value of each point, for the mean estimator; nil when the
    /// points carry none.
    public var value: [Double]?
    /// Kernel radius of each point (plane units, finite and > 0), when the
    /// points carry their own; nil when every point takes the
    /// configuration's radius.
    public var radius: [Double]? = nil

    /// Creates a point set; all arrays must have the same length.
    public init(x: [Double] = [], y: [Double] = [], weight: [Double] = [], value: [Double]? = nil) {
        precondition(
            x.count == y.count && x.count == weight.count && (value?.count ?? x.count) == x.count,
            "PlanePoints arrays differ in length")
        self.x = x
        self.y = y
        self.weight = weight
        self.value = value
    }

    /// The number of points.
    public var count: Int { x.count }

    /// Throws unless every array has one entry per point: the arrays are
    /// public and may be set one by one after ``init(x:y:weight:value:)``
    /// checked them. O(1).
    ///
    /// - Throws: ``HeatMapError/invalidConfiguration(_:)`` naming the array.
    package func checkLengths() throws {
        for (name, length) in [
            ("y", y.count), ("weight", weight.count), ("value", value?.count), ("radius", radius?.count)
        ] {
            guard let length, length != x.count else { continue }
            throw HeatMapError.invalidConfiguration(
                "PlanePoints.\(name) has \(length) entries, but there are \(x.count) points (x)")
        }
    }

    /// Whether there are no points.
    public var isEmpty: Bool { x.isEmpty }

    /// The bounding box of the points (`.empty` when there are none). O(n).
    public var bounds: PlaneBox {
        x.withUnsafeBufferPointer { xs in
            y.withUnsafeBufferPointer { ys in
                var minX = Double.infinity, maxX = -Double.infinity
                var minY = Double.infinity, maxY = -Double.infinity
                for i in 0..<xs.count {
                    let px = xs[i], py = ys[i]
                    minX = Swift.min(minX, px); maxX = Swift.max(maxX, px)
                    minY = Swift.min(minY, py); maxY = Swift.max(maxY, py)
                }
                return PlaneBox(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
            }
        }
    }

    /// Σ weight. O(n).
    public var totalWeight: Double { weight.reduce(0, +) }

    /// Appends one point.
    public mutating func append(
        x px: Double, y py: Double, weight w: Double, value v: Double? = nil,
        radius r: Double? = nil
    ) {
        x.append(px); y.append(py); weight.append(w)
        if let v {
            if value == nil { value = [] }
            value?.append(v)
        }
        if let r {
            if radius == nil { radius = [] }
            radius?.append(r)
        }
    }

    /// Reserves room for `n` more points.
    public mutating func reserveCapacity(_ n: Int) {
        x.reserveCapacity(n); y.reserveCapacity(n); weight.reserveCapacity(n); value?.reserveCapacity(n)
        radius?.reserveCapacity(n)
    }
}
