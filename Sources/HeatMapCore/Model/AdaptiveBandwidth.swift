import Foundation

/// Abramson's adaptive bandwidth (docs/density-model.md#adaptive-bandwidth):
/// narrow kernels where points are dense, wide where they are sparse.
///
/// The pilot f̃(xᵢ) is the fixed-radius sum (the configuration's kernel and
/// radius R, point i included) at every point; g is the weight-weighted
/// geometric mean of f̃ over the points of weight > 0; point i gets
/// rᵢ = R · min((f̃(xᵢ) / g)^−sensitivity, trim). The grid is Σ wᵢ K_rᵢ.
///
/// Cost: the points are held in memory (about 64 bytes each); the pilot
/// is a grid of its own read at every point, with exact sums where points
/// are sparse, and the grid sums the wide kernels by radius classes. For
/// the quartic, triweight, Epanechnikov and Gaussian kernels that is five
/// to ten times the fixed radius's CPU on 10⁶ points; the uniform and
/// triangular kernels count each point's neighbours within R exactly,
/// O(n · √neighbours), 15 to 30 times the fixed radius's
/// (docs/performance.md).
public struct AdaptiveBandwidth: Sendable, Hashable {
    /// The exponent α, in (0, 1]: 0.5 is Abramson's square-root law.
    public var sensitivity: Double
    /// The largest factor a radius may grow by (≥ 1): isolated points get
    /// at most `trim` × R.
    public var trim: Double
    /// The rule of the pilot radius R (a rule of one radius; `.fixed`, the
    /// default, takes ``HeatMapConfiguration/radius``).
    public var pilot: Bandwidth

    /// Creates the rule; see the properties for the ranges.
    public init(sensitivity: Double = 0.5, trim: Double = 5, pilot: Bandwidth = .fixed) {
        self.sensitivity = sensitivity
        self.trim = trim
        self.pilot = pilot
    }

    /// Throws unless 0 < sensitivity ≤ 1, trim ≥ 1 (both finite) and the
    /// pilot is a rule of one radius.
    public func validate() throws {
        guard sensitivity > 0, sensitivity <= 1 else {
            throw HeatMapError.invalidConfiguration(
                "adaptive sensitivity \(sensitivity) is out of range: expected a number in (0, 1] (0.5 is Abramson's square-root law)"
            )
        }
        guard trim >= 1, trim.isFinite else {
            throw HeatMapError.invalidConfiguration(
                "adaptive trim \(trim) is out of range: expected a finite number >= 1")
        }
        guard pilot.adaptiveRule == nil else {
            throw HeatMapError.invalidConfiguration(
                "adaptive pilot is adaptive: expected a rule of one radius (fixed, auto, scott, silverman or arcgis)")
        }
    }
}

extension AdaptiveBandwidth: Codable {
    private enum CodingKeys: String, CodingKey { case sensitivity, trim, pilot }

    /// Missing members take the defaults of ``init(sensitivity:trim:pilot:)``.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            sensitivity: try c.decodeIfPresent(Double.self, forKey: .sensitivity) ?? 0.5,
            trim: try c.decodeIfPresent(Double.self, forKey: .trim) ?? 5,
            pilot: try c.decodeIfPresent(Bandwidth.self, forKey: .pilot) ?? .fixed)
    }

    /// Writes the form ``init(from:)`` reads.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(sensitivity, forKey: .sensitivity)
        try c.encode(trim, forKey: .trim)
        try c.encode(pilot, forKey: .pilot)
    }
}

/// What an adaptive bandwidth chose, for reports.
public struct AdaptiveSummary: Sendable, Hashable {
    /// The pilot radius R.
    public var pilotRadius: Double
    /// The weight-weighted geometric mean of the local radii.
    public var geometricMean: Double
    /// The smallest and largest local radius.
    public var smallest: Double
    public var largest: Double
    /// The local radii at the 5th and 95th weighted percentiles.
    public var percentile5: Double
    public var percentile95: Double
    /// Points whose radius was cut at trim × R.
    public var trimmed: Int

    package init(
        pilotRadius: Double, geometricMean: Double, smallest: Double, largest: Double,
        percentile5: Double, percentile95: Double, trimmed: Int
    ) {
        self.pilotRadius = pilotRadius
        self.geometricMean = geometricMean
        self.smallest = smallest
        self.largest = largest
        self.percentile5 = percentile5
        self.percentile95 = percentile95
        self.trimmed = trimmed
    }
}
