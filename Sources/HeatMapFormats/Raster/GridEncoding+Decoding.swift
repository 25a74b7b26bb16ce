import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

extension GridEncoding {
    /// Why a grid file could not be read.
    public struct DecodingError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong, naming the field.
        public var description: String
    }

    /// Reads the JSON of ``json(_:crs:)`` back into a grid — a grid written by
    /// `contours grid`, or one a database or Spark job made (node values on
    /// a regular lattice, in any unit). `projection` may be omitted (planar).
    /// Values may be null (undefined nodes). O(cells).
    /// A JSON number's value; nil for anything else, booleans included
    /// (Foundation hands `true` over as an NSNumber of 1).
    private static func number(_ v: Any) -> Double? {
        // Booleans come as NSNumber with the type code "c" (a char); JSON
        // never gives a char for a number.
        guard let n = v as? NSNumber, String(cString: n.objCType) != "c" else { return nil }
        return n.doubleValue
    }

    public static func decodeJSON(_ data: Data) throws -> DensityGrid {
        let root: Any
        do { root = try JSONSerialization.jsonObject(with: data) } catch {
            throw DecodingError(description: "grid JSON does not parse: \(JSONParseFailure.describe(error, in: data))")
        }
        guard let object = root as? [String: Any] else {
            throw DecodingError(description: "grid JSON is not an object")
        }
        func int(_ key: String) throws -> Int {
            guard let v = object[key] as? NSNumber, let i = Int(exactly: v.doubleValue), i >= 2 else {
                throw DecodingError(description: "grid JSON: '\(key)' must be a whole number ≥ 2")
            }
            return i
        }
        func double(_ key: String, positive: Bool = false) throws -> Double {
            guard let v = (object[key] as? NSNumber)?.doubleValue, v.isFinite, !positive || v > 0 else {
                throw DecodingError(
                    description: "grid JSON: '\(key)' must be a \(positive ? "positive" : "finite") number")
            }
            return v
        }
        let columns = try int("columns"), rows = try int("rows")
        guard columns.multipliedReportingOverflow(by: rows).overflow == false, columns * rows <= 400_000_000 else {
            throw DecodingError(description: "grid JSON: \(columns) × \(rows) nodes is too many")
        }
        let geometry = GridGeometry(
            columns: columns, rows: rows, x0: try double("x0"), y0: try double("y0"),
            dx: try double("dx", positive: true), dy: try double("dy", positive: true))
        guard let raw = object["values"] as? [Any] else {
            if object["frames"] != nil {
                throw DecodingError(
                    description:
                        "grid JSON: a grid of frames (from --frames) holds no one grid to contour; export the points with --frames instead"
                )
            }
            throw DecodingError(description: "grid JSON: no 'values' array")
        }
        guard raw.count == geometry.count else {
            throw DecodingError(
                description:
                    "grid JSON: 'values' has \(raw.count) numbers for \(columns) × \(rows) = \(geometry.count) nodes")
        }
        var values = [Double](repeating: .nan, count: raw.count)
        for (k, v) in raw.enumerated() {
            if v is NSNull { continue }
            guard let n = Self.number(v), n.isFinite else {
                throw DecodingError(
                    description: "grid JSON: value \(k) (column \(k % columns), row \(k / columns)) is not a number")
            }
            values[k] = n
        }
        var projection = PlaneProjection(kind: .planar)
        if let p = object["projection"] as? [String: Any], let name = p["name"] as? String {
            guard let kind = MapProjection(rawValue: name) else {
                throw DecodingError(description: "grid JSON: unknown projection '\(name)'")
            }
            func centre(_ key: String, within limit: Double) throws -> Double {
                guard kind != .planar, let given = p[key] else { return 0 }
                guard let v = Self.number(given), v.isFinite, abs(v) <= limit else {
                    throw DecodingError(
                        description:
                            "grid JSON: projection '\(key)' must be a number in [-\(Int(limit)), \(Int(limit))]")
                }
                return v
            }
            projection = PlaneProjection(
                kind: kind, centreLatitude: try centre("centre_latitude", within: 90),
                centreLongitude: try centre("centre_longitude", within: 360))
        }
        let estimator = (object["estimator"] as? String).flatMap(DensityEstimator.init(rawValue:)) ?? .density
        let radius = (object["radius"] as? NSNumber)?.doubleValue ?? max(geometry.dx, geometry.dy) * 3
        let kernel = try (object["kernel"] as? String).map { try DensityKernel(name: $0) } ?? .gaussian
        let kernelValues = (object["kernel_values"] as? String).flatMap(KernelValues.init(rawValue:)) ?? .density
        var grid = DensityGrid(
            geometry: geometry, values: values, projection: projection, radius: radius,
            estimator: estimator, units: object["units"] as? String ?? projection.densityUnits,
            kernel: kernel, kernelValues: kernelValues)
        grid.pointRadii = pointRadii(object["radii"] as? [String: Any])
        return grid
    }
}
