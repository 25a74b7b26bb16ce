import Foundation

/// The shape each point spreads its weight with (docs/density-model.md#kernels).
///
/// The Gaussian's radius is 3σ (it has no edge); every other kernel is the
/// one QGIS's "Heatmap (Kernel Density Estimation)" and ArcGIS's "Kernel
/// Density" use, with the radius r as its support: a point adds nothing
/// where d > r, and a node at exactly d = r is included. With u = d / r the
/// shapes (peak 1) are
///
/// | kernel | shape | integral over the plane |
/// |---|---|---|
/// | `quartic` (biweight) | (1 − u²)² | πr²/3 |
/// | `epanechnikov` | 1 − u² | πr²/2 |
/// | `triweight` | (1 − u²)³ | πr²/4 |
/// | `triangular(decay: δ)` | 1 − (1 − δ)u | (1 + 2δ)πr²/3 |
/// | `uniform` | 1 | πr² |
///
/// Density values divide the shape by its integral (the kernel integrates
/// to 1); ``KernelValues/raw`` keeps the shape as it is (QGIS's "Raw").
public enum DensityKernel: Sendable, Hashable, Codable {
    /// exp(−d²/2σ²) with σ = radius / 3, untruncated (the default).
    case gaussian
    /// (1 − u²)²: QGIS's and ArcGIS's default.
    case quartic
    /// 1 − u².
    case epanechnikov
    /// (1 − u²)³.
    case triweight
    /// 1 − (1 − δ)u: a cone whose edge keeps δ of the peak (QGIS's "decay
    /// ratio", 0 ≤ δ ≤ 1; 0 falls to zero at the edge, 1 is the uniform disc).
    case triangular(decay: Double)
    /// 1 over the disc.
    case uniform

    /// Every kernel with its default parameters, in the order help lists them.
    public static let all: [DensityKernel] = [
        .gaussian, .quartic, .epanechnikov, .triweight,
        .triangular(decay: 0), .uniform
    ]

    /// The name the tool reads and metadata carries: `quartic`,
    /// `triangular:0.25` (`triangular` for decay 0).
    public var name: String {
        switch self {
        case .gaussian: return "gaussian"
        case .quartic: return "quartic"
        case .epanechnikov: return "epanechnikov"
        case .triweight: return "triweight"
        case .triangular(let decay): return decay == 0 ? "triangular" : "triangular:\(Self.shortNumber(decay))"
        case .uniform: return "uniform"
        }
    }

    /// Reads a name as ``name`` writes it (any case; `biweight` is the
    /// quartic, `triangle` the triangular).
    ///
    /// - Throws: ``HeatMapError/invalidConfiguration(_:)`` naming what is
    ///   wrong: an unknown name, or a decay that is not a number in 0...1.
    public init(name text: String) throws {
        let lower = text.lowercased()
        let (head, decayText) =
            lower.firstIndex(of: ":").map { (String(lower[..<$0]), String(lower[lower.index(after: $0)...])) }
            ?? (lower, nil)
        switch head {
        case "gaussian", "normal": self = .gaussian
        case "quartic", "biweight": self = .quartic
        case "epanechnikov": self = .epanechnikov
        case "triweight": self = .triweight
        case "uniform": self = .uniform
        case "triangular", "triangle":
            guard let decayText else { self = .triangular(decay: 0); return }
            guard let decay = Double(decayText), decay.isFinite else {
                throw HeatMapError.invalidConfiguration(
                    "kernel '\(text)': the decay '\(decayText)' is not a number (expected 0...1)")
            }
            self = .triangular(decay: decay)
            try validate()
            return
        default:
            throw HeatMapError.invalidConfiguration(
                "unknown kernel '\(text)' (expected gaussian, quartic, epanechnikov, triweight, triangular[:DECAY] or uniform)"
            )
        }
        if decayText != nil {
            throw HeatMapError.invalidConfiguration("kernel '\(text)': only the triangular kernel takes a parameter")
        }
    }

    /// Throws unless the kernel's parameter is valid (a triangular decay in 0...1).
    public func validate() throws {
        if case .triangular(let decay) = self, !(decay >= 0 && decay <= 1) {
            throw HeatMapError.invalidConfiguration(
                "kernel triangular:\(Self.shortNumber(decay)): the decay must be in 0...1 (the share of the peak kept at the radius)"
            )
        }
    }

    /// Whether the kernel has an edge (every kernel but the Gaussian).
    public var isFinite: Bool { self != .gaussian }

    /// The radius per σ, where σ² is the kernel's variance along one axis:
    /// the radius a bandwidth rule's σ becomes (docs/density-model.md#kernels).
    /// Gaussian 3 (its definition); quartic √8, Epanechnikov √6, triweight
    /// √10, uniform 2, triangular √(20(1 + 2δ) / (3(1 + 4δ))).
    public var radiusPerSigma: Double {
        // For a radial kernel the variance per axis is half the mean of d²;
        // with t = u², the shapes are polynomials in t and the means are
        // ratios of Beta integrals.
        switch self {
        case .gaussian: return 3
        case .quartic: return 8.0.squareRoot()  // E[u²] = 1/4
        case .epanechnikov: return 6.0.squareRoot()  // E[u²] = 1/3
        case .triweight: return 10.0.squareRoot()  // E[u²] = 1/5
        case .uniform: return 2  // E[u²] = 1/2
        case .triangular(let decay):  // E[u²] = 3(1 + 4δ) / (10(1 + 2δ))
            return (20 * (1 + 2 * decay) / (3 * (1 + 4 * decay))).squareRoot()
        }
    }

    /// The density's constant c in c / (πr²) × shape (the reciprocal of the
    /// shape's integral, times πr²); for the Gaussian, 9 / 2 (1 / 2πσ² with σ = r / 3).
    public var normalization: Double {
        switch self {
        case .gaussian: return 4.5
        case .quartic: return 3
        case .epanechnikov: return 2
        case .triweight: return 4
        case .triangular(let decay): return 3 / (1 + 2 * decay)
        case .uniform: return 1
        }
    }

    /// The shape at u² = (d / r)², peak 1; 0 beyond the support (finite
    /// kernels), the untruncated Gaussian otherwise. O(1).
    public func shape(squaredDistanceRatio u2: Double) -> Double {
        if self == .gaussian { return exp(-4.5 * u2) }
        guard u2 <= 1 else { return 0 }
        switch self {
        case .gaussian: return exp(-4.5 * u2)
        case .quartic: return (1 - u2) * (1 - u2)
        case .epanechnikov: return 1 - u2
        case .triweight: return (1 - u2) * (1 - u2) * (1 - u2)
        case .triangular(let decay): return 1 - (1 - decay) * u2.squareRoot()
        case .uniform: return 1
        }
    }

    static func shortNumber(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : "\(v)"
    }
}

/// What the grid's values are for a density: the kernel's density, or its
/// raw shape summed (QGIS's "Raw" output).
public enum KernelValues: String, Sendable, Hashable, CaseIterable, Codable {
    /// Σ wᵢ K(x − pᵢ) with K integrating to 1: weight per km² for
    /// geographic planes, per square unit for planar data (the default;
    /// QGIS's "Scaled" for the finite kernels).
    case density
    /// Σ wᵢ × shape: the shape's peak is 1, so a lone point of weight w
    /// peaks at w. No unit (QGIS's "Raw").
    case raw
}
