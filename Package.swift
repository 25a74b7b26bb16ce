// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "HeatMap",
    products: [
        .library(name: "HeatMap", targets: ["HeatMap"]),
        .executable(name: "contours", targets: ["contours"]),
        .executable(name: "contours-bench", targets: ["contours-bench"]),
    ],
    targets: [
        .target(name: "HeatMap", path: "Sources/HeatMap"),
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
