import Foundation
import HeatMapCore

/// Learns the spread of points streamed through it and turns it into a
/// kernel radius for a ``Bandwidth`` rule (docs/density-model.md). Memory O(1) plus a bounded
/// sample for the quartiles.
///
/// Statistics are weighted: Welford's running weighted means and variances
/// (stable in one pass), the effective count n = (Σw)² / Σw², and the
/// weighted quartiles of a uniform sample of at most `reservoirCapacity`
/// points (exact below that). Points of weight 0 move only ``bounds``.
///
/// The rules, with σ the kernel's standard deviation and radius = 3σ:
/// - `.scott`: σ = n^(−1/6) · √((sₓ² + s_y²) / 2), sₓ, s_y the weighted
///   standard deviations (reliability-weighted, Σw·d² / (Σw − Σw²/Σw)).
/// - `.silverman`: σ = n^(−1/6) · (aₓ + a_y) / 2 with a = min(s, IQR / 1.349)
///   per axis (just s when the IQR is 0). In two dimensions Silverman's
///   factor (4 / (d + 2))^(1/(d+4)) is 1, so only the robust spread differs
///   from Scott.
/// - `.auto`: the Apple package's rule, radius = √(box area / n) clamped to
///   50 m…50 km for geographic planes, and to longer side × [1/1000, 1/2] for
///   planar data (whose units are unknown); the box is that of the points of
///   weight > 0.
/// - `.fixed`: the given radius.
/// When a rule has nothing to measure (fewer than two weighted points, all
/// of them identical, or a spread lost in the coordinates' rounding) the
/// given fixed radius is used, so the radius is never 0 or NaN.
struct BandwidthEstimator: Sendable, Hashable {
    /// Box of every point added (for fitting the grid).
    package private(set) var bounds = PlaneBox.empty
    /// Box of the points of weight > 0.
    private(set) var weightedBounds = PlaneBox.empty
    /// Points added (all weights).
    package private(set) var count = 0
    /// Points of weight > 0.
    package private(set) var weightedCount = 0
    /// Σ w.
    private(set) var totalWeight = 0.0
    private var squaredWeight = 0.0
    private var meanX = 0.0, meanY = 0.0
    private var sumSquaresX = 0.0, sumSquaresY = 0.0
    private var reservoir: PointReservoir

    /// Creates an empty estimator; the quartile sample holds at most
    /// `reservoirCapacity` points (x, y, w: 24 bytes each).
    package init(reservoirCapacity: Int = 100_000) {
        reservoir = PointReservoir(capacity: reservoirCapacity)
    }

    /// Adds one point. Non-finite coordinates and negative or non-finite
    /// weights are ignored (validate input before). O(1) amortised.
    package mutating func add(x: Double, y: Double, weight: Double) {
        guard Self.measures(x: x, y: y, weight: weight) else { return }
        let p = PlanePoint(x: x, y: y)
        bounds.formUnion(p)
        count += 1
        guard weight > 0 else { return }
        weightedBounds.formUnion(p)
        weightedCount += 1
        totalWeight += weight
        squaredWeight += weight * weight
        let share = weight / totalWeight
        let dx = x - meanX, dy = y - meanY
        meanX += share * dx
        meanY += share * dy
        sumSquaresX += weight * dx * (x - meanX)
        sumSquaresY += weight * dy * (y - meanY)
        reservoir.offer(x: x, y: y, weight: weight)
    }

    /// Whether ``add(x:y:weight:)`` takes the point: finite coordinates and
    /// a finite weight ≥ 0. ``bounds`` is the box of these points.
    @inline(__always)
    static func measures(x: Double, y: Double, weight: Double) -> Bool {
        x.isFinite && y.isFinite && weight.isFinite && weight >= 0
    }

    /// Adds a batch. O(batch).
    package mutating func add(_ batch: PlanePoints) {
        for i in 0..<batch.count { add(x: batch.x[i], y: batch.y[i], weight: batch.weight[i]) }
    }

    /// (Σw)² / Σw²: the number of equally weighted points with the same
    /// information (0 with no weight).
    var effectiveCount: Double {
        squaredWeight > 0 ? totalWeight * totalWeight / squaredWeight : 0
    }

    /// The weighted mean position (nil with no weight).
    package var mean: PlanePoint? { totalWeight > 0 ? PlanePoint(x: meanX, y: meanY) : nil }

    /// Weighted standard deviations along x and y (0 for n ≤ 1).
    var standardDeviation: (x: Double, y: Double) {
        let denominator = totalWeight - squaredWeight / max(totalWeight, .leastNormalMagnitude)
        guard totalWeight > 0, denominator > totalWeight * 1e-12 else { return (0, 0) }
        return (max(sumSquaresX / denominator, 0).squareRoot(), max(sumSquaresY / denominator, 0).squareRoot())
    }

    /// The weighted standard distance √(Σw·d² / Σw), d the distance to the
    /// weighted mean centre (0 with no weight).
    var standardDistance: Double {
        guard totalWeight > 0 else { return 0 }
        return (max(sumSquaresX + sumSquaresY, 0) / totalWeight).squareRoot()
    }

    /// ArcGIS Pro's default search radius: 0.9 · min(SD, √(1/ln 2) · Dm) ·
    /// n^−0.2, with SD the standard distance, Dm the median distance to the
    /// mean centre and n the sum of the weights.
    static func arcgisRadius(standardDistance sd: Double, medianDistance dm: Double, totalWeight n: Double) -> Double {
        0.9 * min(sd, (1 / log(2.0)).squareRoot() * dm) * pow(n, -0.2)
    }

    /// Weighted interquartile ranges along x and y (exact up to the sample
    /// capacity, estimated from the sample beyond). (0, 0) with no weight.
    var interquartileRange: (x: Double, y: Double) {
        guard let x1 = reservoir.quantile(0.25, alongX: true), let x3 = reservoir.quantile(0.75, alongX: true),
            let y1 = reservoir.quantile(0.25, alongX: false), let y3 = reservoir.quantile(0.75, alongX: false)
        else { return (0, 0) }
        return (x3 - x1, y3 - y1)
    }

    /// The kernel radius a rule gives for the points added, or `fixed` when
    /// the rule is `.fixed` or has nothing to measure (see the type's notes).
    /// Always finite and > 0 when `fixed` is.
    package func radius(for bandwidth: Bandwidth, fixed: Double, projection: PlaneProjection) -> Double {
        rule(bandwidth, projection: projection) ?? fixed
    }

    /// The rule's radius (an adaptive rule's pilot radius), or nil when it
    /// has nothing to measure.
    package func rule(_ bandwidth: Bandwidth, projection: PlaneProjection) -> Double? {
        let radius: Double
        switch bandwidth.radiusRule {
        case .fixed, .adaptive:
            return nil
        case .arcgis:
            guard weightedCount >= 2, let centre = mean, let median = reservoir.medianDistance(to: centre) else {
                return nil
            }
            radius = BandwidthEstimator.arcgisRadius(
                standardDistance: standardDistance, medianDistance: median,
                totalWeight: totalWeight)
        case .auto:
            guard weightedCount >= 2 else { return nil }
            let width = weightedBounds.width, height = weightedBounds.height
            let range: ClosedRange<Double>
            if projection.isGeographic {
                range = 50...50_000
            } else {
                let longer = max(width, height)
                guard longer > 0 else { return nil }
                range = (longer / 1000)...(longer / 2)
            }
            radius = AdaptiveRule(width: width, height: height, count: weightedCount, radiusRange: range).radius
        case .scott, .silverman:
            let n = effectiveCount
            guard weightedCount >= 2, n > 1 else { return nil }
            let s = standardDeviation
            let spread: Double
            if bandwidth == .scott {
                spread = ((s.x * s.x + s.y * s.y) / 2).squareRoot()
            } else {
                let iqr = interquartileRange
                let ax = iqr.x > 0 ? min(s.x, iqr.x / 1.349) : s.x
                let ay = iqr.y > 0 ? min(s.y, iqr.y / 1.349) : s.y
                spread = (ax + ay) / 2
            }
            radius = 3 * pow(n, -1.0 / 6) * spread
        }
        // A spread at the level of the coordinates' rounding is noise.
        let magnitude = max(
            abs(weightedBounds.minX), abs(weightedBounds.maxX),
            abs(weightedBounds.minY), abs(weightedBounds.maxY))
        guard radius.isFinite, radius > 0, radius > magnitude * 1e-9 else { return nil }
        return radius
    }
}
