// swift-tools-version: 6.0
import PackageDescription

// The library is four targets along its layers, each depending only on the
// ones below it; `HeatMap` re-exports them all. A client that wants density
// and contours without pictures, codecs or H3 links `HeatMapContouring`.
let package = Package(
    name: "HeatMap",
    products: [
        .library(name: "HeatMap", targets: ["HeatMap"]),
        .library(name: "HeatMapContouring", targets: ["HeatMapContouring"]),
        .executable(name: "contours", targets: ["contours"]),
        .executable(name: "contours-bench", targets: ["contours-bench"]),
    ],
    targets: [
        // Core values, projections, cancellation and parallel-for.
        .target(name: "HeatMapCore", path: "Sources/HeatMapCore"),
        // Point readers, the density planner and grid, SQL engines.
        .target(name: "HeatMapDensity", dependencies: ["HeatMapCore"], path: "Sources/HeatMapDensity"),
        // Levels, marching squares, smoothing, assembly, simplification,
        // hit testing and the public result, `HeatMapContours`.
        .target(name: "HeatMapContouring", dependencies: ["HeatMapCore", "HeatMapDensity"],
                path: "Sources/HeatMapContouring"),
        // GeoJSON, bins and H3, SVG/HTML pictures, rasters and their codecs.
        .target(name: "HeatMapFormats", dependencies: ["HeatMapCore", "HeatMapDensity", "HeatMapContouring"],
                path: "Sources/HeatMapFormats"),
        // The umbrella: `import HeatMap` gives all of the above.
        .target(name: "HeatMap", dependencies: ["HeatMapCore", "HeatMapDensity", "HeatMapContouring", "HeatMapFormats"],
                path: "Sources/HeatMap"),
        .executableTarget(name: "contours", dependencies: ["HeatMap"], path: "Sources/contours"),
        .executableTarget(name: "contours-bench", dependencies: ["HeatMap"], path: "Sources/contours-bench"),
        .executableTarget(name: "sample-quakes", dependencies: ["HeatMap"], path: "Samples/QuakeContours"),
        .executableTarget(name: "sample-storms", dependencies: ["HeatMap"], path: "Samples/StormContours"),
        .executableTarget(name: "sample-hexbins", dependencies: ["HeatMap"], path: "Samples/QuakeHexbins"),
        .executableTarget(name: "sample-ames", dependencies: ["HeatMap"], path: "Samples/AmesPrices"),
        .testTarget(name: "HeatMapTests", dependencies: ["HeatMap", "contours"], path: "Tests/HeatMapTests"),
    ],
    swiftLanguageModes: [.v6]
)
