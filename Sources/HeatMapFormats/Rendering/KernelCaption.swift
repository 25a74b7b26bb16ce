import HeatMapCore
import HeatMapDensity

/// The line a picture's legend and description carry when its grid was
/// not made by the default kernel (the Gaussian with one radius, density
/// values): which kernel, and its radius or the points' radii, so that a
/// reader can tell a quartic of 5 km from a Gaussian of 5 km.
enum KernelCaption {
    /// "Quartic kernel, radius 57 km", "Gaussian kernel, adaptive radius
    /// 12–285 km", "Epanechnikov kernel, radius per point 50–170 m, raw";
    /// nil for the default. Radii in km for geographic grids.
    static func text(_ grid: DensityGrid) -> String? {
        guard grid.kernel != .gaussian || grid.kernelValues != .density || grid.pointRadii != nil else { return nil }
        let geographic = grid.projection.isGeographic
        func length(_ v: Double) -> String {
            geographic ? HeatMapNumberFormat.string(v / 1000) : HeatMapNumberFormat.string(v)
        }
        let unit = geographic ? " km" : ""
        let name =
            grid.kernel == .gaussian
            ? "Gaussian" : grid.kernel.name.prefix(1).uppercased() + grid.kernel.name.dropFirst()
        var text = "\(name) kernel, "
        switch grid.pointRadii {
        case nil: text += "radius \(length(grid.radius))\(unit)"
        case .perPoint(let smallest, let largest)?:
            text += "radius per point \(length(smallest))–\(length(largest))\(unit)"
        case .adaptive(_, _, let summary)?:
            text += "adaptive radius \(length(summary.smallest))–\(length(summary.largest))\(unit)"
        }
        if grid.kernelValues == .raw { text += ", raw" }
        return text
    }
}
