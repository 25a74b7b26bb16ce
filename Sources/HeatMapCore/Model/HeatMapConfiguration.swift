import Foundation

/// Everything that shapes a heat map computation.
///
/// The initialiser mirrors the Apple HeatMap package (same names, defaults
/// and clamping), so `HeatMapConfiguration(radius: 1000, contourLevels: 12)`
/// ports unchanged. Settings beyond it (``projection``, ``estimator``,
/// ``bandwidth``, ``densityMethod``) are further properties with defaults.
public struct HeatMapConfiguration: Sendable, Hashable {
    /// Kernel radius: metres for geographic input, data units for `.planar`.
    /// The Gaussian's σ is radius / 3. Ignored when ``bandwidth`` is not `.fixed`.
    public var radius: Double
    /// How many thresholds to ask for (custom spacing: the number of values given).
    public var contourLevels: Int
    /// How thresholds are placed between the grid's minimum and maximum.
    public var levelSpacing: LevelSpacing
    /// Grid cells along the longer axis of the padded data box.
    public var gridResolution: Int
    /// Padding of the data box on every side, as a multiple of the radius.
    public var paddingFactor: Double
    /// Smoothing of the contour rings.
    public var smoother: PolygonSmoother
    /// Colours for rendering (not used by the computation).
    public var gradient: HeatMapGradient
    /// Fill opacity for rendering, 0...1 (not used by the computation).
    public var fillOpacity: Double
    /// Render mode for rendering (not used by the computation).
    public var renderMode: HeatMapRenderMode
    /// The plane in which distances are measured.
    public var projection: MapProjection
    /// Density of weight, or kernel-weighted mean of a measured value.
    public var estimator: DensityEstimator
    /// How the kernel radius is chosen: one radius by a rule, or a radius
    /// per point (`.adaptive`).
    public var bandwidth: Bandwidth
    /// Which algorithm computes the grid (all meet the same accuracy bound).
    public var densityMethod: DensityMethod
    /// Tolerance of the topology-keeping simplification of the contours
    /// (``ContourSet/simplified(tolerance:maximumSegment:projection:modes:control:)``),
    /// in plane units: metres for geographic input. 0 (the default) keeps
    /// every vertex.
    public var simplification: Double = 0
    /// With ``Bandwidth/auto``, take ``gridResolution`` from the data too:
    /// the longer side of the weighted points' box over σ, clamped to
    /// 20…300 (what `contours` does when no `--resolution` is given).
    /// Ignored by the other rules. false (the default) keeps ``gridResolution``.
    public var resolutionFromData = false
    /// The kernel (docs/density-model.md#kernels): the Gaussian (the
    /// default, σ = ``radius`` / 3) or a finite kernel whose support is ``radius``.
    public var kernel: DensityKernel = .gaussian
    /// Density values (the default), or raw kernel sums (QGIS's "Raw":
    /// weight × shape, peak 1 per unit of weight, no unit).
    public var kernelValues: KernelValues = .density
    /// The adaptive rule of ``bandwidth`` (`.adaptive(rule)`), or nil.
    /// Setting a rule makes ``bandwidth`` `.adaptive` with the current radius
    /// rule as its pilot; setting nil leaves the pilot's rule.
    @available(*, deprecated, message: "set bandwidth = .adaptive(AdaptiveBandwidth(...)) instead")
    public var adaptive: AdaptiveBandwidth? {
        get { bandwidth.adaptiveRule }
        set {
            let pilot = bandwidth.radiusRule
            if var rule = newValue {
                rule.pilot = pilot
                bandwidth = .adaptive(rule)
            } else {
                bandwidth = pilot
            }
        }
    }

    /// Creates a configuration. As in the Apple package, `radius` is clamped
    /// to at least 1 (for `.planar` only non-positive or non-finite radii
    /// become 1), `contourLevels` to at least 1 (custom spacing: the number
    /// of values), `gridResolution` to at least 2, `paddingFactor` to at
    /// least 0 and `fillOpacity` to 0...1.
    public init(
        radius: Double = 500,
        contourLevels: Int = 10,
        levelSpacing: LevelSpacing = .auto,
        gridResolution: Int = 100,
        gradient: HeatMapGradient = .thermal,
        paddingFactor: Double = 1.5,
        fillOpacity: Double = 1.0,
        renderMode: HeatMapRenderMode = .filled,
        smoother: PolygonSmoother = .chaikin(),
        projection: MapProjection = .equalArea,
        estimator: DensityEstimator = .density,
        bandwidth: Bandwidth = .fixed,
        densityMethod: DensityMethod = .automatic
    ) {
        if projection == .planar {
            self.radius = radius.isFinite && radius > 0 ? radius : 1
        } else {
            self.radius = radius.isFinite ? max(radius, 1) : 500
        }
        self.contourLevels = max(contourLevels, 1)
        if case .custom(let values) = levelSpacing, !values.isEmpty {
            self.contourLevels = values.count
        }
        if case .probability(let shares) = levelSpacing, !shares.isEmpty {
            self.contourLevels = shares.count
        }
        self.levelSpacing = levelSpacing
        self.gridResolution = max(gridResolution, 2)
        self.gradient = gradient
        self.paddingFactor = paddingFactor.isFinite ? max(paddingFactor, 0) : 1.5
        self.fillOpacity = HeatMapColor.clampedOpacity(fillOpacity)
        self.renderMode = renderMode
        self.smoother = smoother
        self.projection = projection
        self.estimator = estimator
        self.bandwidth = bandwidth
        self.densityMethod = densityMethod
    }
}

extension HeatMapConfiguration {
    /// The most contour levels a map may have (the tool's `--levels`).
    package static let maximumLevels = 1000

    /// Throws unless the properties a caller may set past the initializer's
    /// clamps are in range: ``contourLevels`` 1 … ``maximumLevels`` (more
    /// levels than that are no map a reader can tell apart, and cost a
    /// contour pass each), ``radius`` finite and > 0, ``paddingFactor``
    /// finite and ≥ 0.
    /// - Throws: ``HeatMapError/invalidConfiguration(_:)`` naming the property.
    package func checkSettings() throws {
        guard (1...Self.maximumLevels).contains(contourLevels) else {
            throw HeatMapError.invalidConfiguration(
                "contourLevels \(contourLevels): a map has 1 to \(Self.maximumLevels) levels")
        }
        guard radius.isFinite, radius > 0 else {
            throw HeatMapError.invalidConfiguration("radius \(radius): the kernel radius must be a finite number > 0")
        }
        guard paddingFactor.isFinite, paddingFactor >= 0 else {
            throw HeatMapError.invalidConfiguration(
                "paddingFactor \(paddingFactor): the padding must be a finite number >= 0 (a multiple of the radius)")
        }
    }
}

extension HeatMapConfiguration: CustomStringConvertible {
    public var description: String {
        "HeatMapConfiguration(radius: \(radius), levels: \(contourLevels), spacing: \(levelSpacing), "
            + "grid: \(gridResolution), padding: \(paddingFactor)×, smoother: \(smoother), "
            + "projection: \(projection), estimator: \(estimator), bandwidth: \(bandwidth))"
    }
}

/// The plane in which the kernel measures distance.
public enum MapProjection: String, Sendable, Hashable, CaseIterable, Codable {
    /// Lambert azimuthal equal-area, centred on the data (default): areas
    /// are true, so densities per km² are honest; data across ±180° stays
    /// one cluster.
    case equalArea = "equal-area"
    /// Local metres: x = R·Δλ·cos φ₀, y = R·Δφ around the data's centre
    /// (the Apple package's approximation).
    case equirectangular
    /// Spherical web mercator (EPSG:3857) metres; areas are inflated away
    /// from the equator, so densities are per projected km².
    case webMercator = "web-mercator"
    /// Coordinates are already planar x (longitude) / y (latitude).
    case planar
}

/// What the grid holds.
public enum DensityEstimator: String, Sendable, Hashable, CaseIterable, Codable {
    /// Σ wᵢ K(x − pᵢ): weight per km² (per square unit for planar).
    case density
    /// Σ vᵢ wᵢ K / Σ wᵢ K: the kernel-weighted mean of the points' values,
    /// undefined (below every threshold) where Σ wᵢ K × 2πσ² < 0.05.
    case mean
}

/// How the kernel radius is chosen. The radius used is reported in
/// ``DensityGrid/radius`` (and ``HeatMapContours/radius``); a rule with
/// nothing to measure (fewer than two weighted points, all identical, all
/// weights zero) falls back to ``HeatMapConfiguration/radius``, so it is
/// never 0 or NaN. See `BandwidthEstimator` for streamed input.
public enum Bandwidth: Sendable, Hashable {
    /// ``HeatMapConfiguration/radius`` as given.
    case fixed
    /// The Apple package's `adaptive(for:)` rule: the mean spacing of the
    /// points of weight > 0, √(area of their box / n), clamped to
    /// 50 m…50 km for geographic data and to [1/1000, 1/2] of the box's
    /// longer side for planar data (whose units are unknown).
    case auto
    /// Scott's rule: σ = n^(−1/6) · √((sₓ² + s_y²) / 2), radius = 3σ, where
    /// sₓ, s_y are the weighted standard deviations (Σw·d² / (Σw − Σw²/Σw))
    /// and n = (Σw)² / Σw² is the effective count.
    case scott
    /// Silverman's rule: σ = (4 / (d + 2))^(1/(d+4)) n^(−1/(d+4)) · spread with
    /// d = 2, i.e. σ = n^(−1/6) · spread, where spread = (aₓ + a_y) / 2 and
    /// a = min(s, IQR / 1.349) per axis (s when the IQR is 0); weighted
    /// quartiles, exact up to 100 000 points and from a uniform sample
    /// beyond. radius = 3σ.
    case silverman
    /// ArcGIS Pro's default search radius, r = 0.9 · min(SD, √(1/ln 2) · Dm) ·
    /// n^−0.2: SD the weighted standard distance, Dm the weighted median
    /// distance to the weighted mean centre (exact up to 100 000 points,
    /// from a uniform sample beyond), n = Σw. It gives the radius itself,
    /// whatever the kernel (ArcGIS's quartic support).
    case arcgis
    /// Abramson's adaptive bandwidth: a radius per point, narrow where
    /// points are dense and wide where they are sparse, around the pilot
    /// radius that the rule's ``AdaptiveBandwidth/pilot`` gives
    /// (docs/density-model.md#adaptive-bandwidth). The points are held in
    /// memory (O(n)); the pilot at every point and the grid of radii per
    /// point cost several times a fixed-radius grid (docs/performance.md).
    indirect case adaptive(AdaptiveBandwidth)

    /// An adaptive bandwidth: `.adaptive(AdaptiveBandwidth(sensitivity:trim:pilot:))`.
    public static func adaptive(
        sensitivity: Double = 0.5, trim: Double = 5, pilot: Bandwidth = .fixed
    ) -> Bandwidth {
        .adaptive(AdaptiveBandwidth(sensitivity: sensitivity, trim: trim, pilot: pilot))
    }

    /// The rule that gives the one radius R: the rule itself, or an
    /// adaptive bandwidth's pilot (R is then the pilot radius).
    public var radiusRule: Bandwidth {
        if case .adaptive(let rule) = self { return rule.pilot.radiusRule }
        return self
    }

    /// The adaptive rule, or nil for a rule of one radius.
    public var adaptiveRule: AdaptiveBandwidth? {
        if case .adaptive(let rule) = self { return rule }
        return nil
    }

    /// The same bandwidth once its radius is known: the radius rule becomes
    /// `.fixed` (an adaptive rule keeps its sensitivity and trim).
    package func fixingRadius() -> Bandwidth {
        guard case .adaptive(var rule) = self else { return .fixed }
        rule.pilot = .fixed
        return .adaptive(rule)
    }
}

extension Bandwidth: CaseIterable {
    /// The rules of one radius (`.adaptive` wraps one of them as its pilot).
    public static var allCases: [Bandwidth] { [.fixed, .auto, .scott, .silverman, .arcgis] }
}

extension Bandwidth: RawRepresentable {
    /// The rule's name as the tool spells it (`fixed`, `auto`, `scott`,
    /// `silverman`, `arcgis`, `adaptive`); `adaptive` names the default
    /// adaptive rule (``AdaptiveBandwidth/init(sensitivity:trim:pilot:)``).
    public init?(rawValue: String) {
        switch rawValue {
        case "fixed": self = .fixed
        case "auto": self = .auto
        case "scott": self = .scott
        case "silverman": self = .silverman
        case "arcgis": self = .arcgis
        case "adaptive": self = .adaptive(AdaptiveBandwidth())
        default: return nil
        }
    }

    /// The rule's name (`adaptive` for every adaptive rule).
    public var rawValue: String {
        switch self {
        case .fixed: return "fixed"
        case .auto: return "auto"
        case .scott: return "scott"
        case .silverman: return "silverman"
        case .arcgis: return "arcgis"
        case .adaptive: return "adaptive"
        }
    }
}

extension Bandwidth: Codable {
    /// A rule of one radius is its name (`"scott"`); an adaptive rule is
    /// `{"adaptive": {"sensitivity": …, "trim": …, "pilot": …}}`.
    public init(from decoder: any Decoder) throws {
        if let name = try? decoder.singleValueContainer().decode(String.self) {
            guard let rule = Bandwidth(rawValue: name), rule.adaptiveRule == nil else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: "unknown bandwidth rule '\(name)'"))
            }
            self = rule
            return
        }
        let keyed = try decoder.container(keyedBy: AdaptiveKey.self)
        self = .adaptive(try keyed.decode(AdaptiveBandwidth.self, forKey: .adaptive))
    }

    /// Writes the form ``init(from:)`` reads.
    public func encode(to encoder: any Encoder) throws {
        if case .adaptive(let rule) = self {
            var keyed = encoder.container(keyedBy: AdaptiveKey.self)
            try keyed.encode(rule, forKey: .adaptive)
        } else {
            var single = encoder.singleValueContainer()
            try single.encode(rawValue)
        }
    }

    private enum AdaptiveKey: String, CodingKey { case adaptive }
}

/// The algorithm that fills the density grid. All keep every node within
/// 1e−3 × (grid maximum) of the exact untruncated sum (docs/density-model.md); they differ in
/// speed only.
public enum DensityMethod: String, Sendable, Hashable, CaseIterable, Codable {
    /// The fastest accurate method for σ in cells, the number of points and
    /// the memory the binned methods would take.
    case automatic
    /// Separable direct splat: per point, two 1-D kernel vectors by
    /// recurrence and their outer product over the disc of radius 5σ (plus
    /// half a cell), added row by row. O(N · (σ/δ)²), memory one grid.
    case exact
    /// Binning plus separable convolution. By σ in cells: exact along x
    /// with Taylor moments along y (σ ≥ 1 cell), nearest-node Taylor moments of
    /// order 4, 3 or 2 (σ ≥ 2, 3, 6 cells), linear binning (σ ≥ 24 cells);
    /// the exact splat below 1 cell. O(N · work per point + cells · σ/δ).
    case binned
}
