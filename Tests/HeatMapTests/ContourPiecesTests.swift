import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// Contours made on demand from their pieces are the very geometry the
/// builder makes all at once: level by level, in an export written from the
/// pieces, and in the polygons.
@Suite struct ContourPiecesTests {
    /// Random fields whose levels reach the frame, one with a NaN node,
    /// smoothed and not (the same kinds of field as ContourKindsTests).
    static let cases: [(seed: UInt64, smoother: PolygonSmoother, nan: Bool)] = [
        (31, .none, false), (32, .chaikin(iterations: 2), false), (33, .chaikin(iterations: 3), true),
        (34, .chaikin(iterations: 1), false)
    ]

    @Test(arguments: 0..<cases.count)
    func everyLevelEqualsTheBuild(index: Int) throws {
        let c = Self.cases[index]
        var grid = ContourFixture.randomGrid(seed: c.seed, columns: 47, rows: 39, bumps: 18)
        if c.nan { grid.values[grid.geometry.columns * 12 + 19] = .nan }
        let thresholds = ThresholdResolver.thresholds(for: .quantile, levelCount: 8, grid: grid)
        #expect(thresholds.count >= 5)
        let set = try ContourBuilder.build(grid: grid, thresholds: thresholds, smoother: c.smoother)
        let pieces = try ContourBuilder.pieces(grid: grid, thresholds: thresholds, smoother: c.smoother)
        #expect(pieces.thresholds == set.thresholds)
        #expect(set.bands.contains { $0.count > 1 }, "some band has several polygons")
        // Read out of order and twice, as writers on several cores do.
        for l in (0..<thresholds.count).reversed() + Array(0..<thresholds.count) {
            #expect(try pieces.polygons(.bands, level: l, control: .none) == set.bands[l], "band \(l)")
            #expect(try pieces.polygons(.levels, level: l, control: .none) == set.levels[l], "level \(l)")
            #expect(try pieces.isolines(level: l, control: .none) == set.isolines[l], "isolines \(l)")
            #expect(try pieces.polygons(.isolines, level: l, control: .none).isEmpty)
        }
        #expect(try pieces.polygons(.bands, level: thresholds.count, control: .none).isEmpty)
    }

    /// Storm-like clusters across ±180° (geographic: unprojected, split,
    /// rounded with repairs) and a planar field, in every mode and grouping.
    @Test(arguments: [false, true])
    func anExportFromPiecesWritesTheSetsBytes(planar: Bool) throws {
        var rng = SplitMix(seed: planar ? 41 : 42)
        var points: [HeatMapPoint] = []
        for k in 0..<6 {
            let lat = -30 + 9 * Double(k), lon = planar ? 10 * Double(k) : 176 + 2.2 * Double(k)
            for _ in 0..<160 {
                points.append(
                    HeatMapPoint(
                        latitude: lat + 2 * (rng.unit() - 0.5) * (1 + rng.unit()),
                        longitude: lon + 2 * (rng.unit() - 0.5) * (1 + rng.unit()),
                        weight: 1 + 4 * rng.unit()))
            }
        }
        let configuration = HeatMapConfiguration(
            radius: planar ? 0.6 : 60_000, contourLevels: 9,
            levelSpacing: .quantile, gridResolution: 90,
            projection: planar ? .planar : .equalArea)
        let lazy = try HeatMapContours.compute(from: points, configuration: configuration, control: .none)
        let set = try ContourBuilder.build(
            grid: lazy.grid, thresholds: lazy.thresholds,
            smoother: configuration.smoother)
        for mode in ContourMode.allCases {
            for grouping in GeoJSONFeatureGrouping.allCases {
                let options = GeoJSONOptions(precision: planar ? 4 : 5, grouping: grouping)
                let expected = try GeoJSONExport.contours(
                    set, projection: lazy.projection, units: lazy.units,
                    mode: mode, gradient: configuration.gradient,
                    fillOpacity: configuration.fillOpacity, options: options)
                let text = try GeoJSONExport.contours(lazy, mode: mode, options: options)
                #expect(text == expected, "\(mode) \(grouping) planar \(planar)")
                #expect(text.contains("\"coordinates\""), "\(mode) \(grouping) has geometry")
            }
        }
        // Once the set is made (here by reading it), exports read it instead, to the same bytes.
        #expect(lazy.contourSet.bands == set.bands && lazy.contourSet.levels == set.levels)
        #expect(
            try GeoJSONExport.contours(lazy)
                == GeoJSONExport.contours(
                    set, projection: lazy.projection,
                    units: lazy.units,
                    gradient: configuration.gradient,
                    fillOpacity: configuration.fillOpacity))
        // Polygons made from pieces and from the set are the same.
        let early = try HeatMapContours.compute(from: points, configuration: configuration, control: .none)
        #expect(
            early.contours == lazy.contours && early.contours.map(\.coordinates) == lazy.contours.map(\.coordinates))
    }

    /// A planar export from pieces starts from the frame's magnitude and
    /// writes again from the contours' own when the two give other
    /// decimals or another bbox slot. A field whose contours end short of
    /// its frame is placed twice: where both pass 100 (one pass), and with
    /// 100 between them (two); each gives the bytes of the set, whose
    /// magnitude is measured before writing.
    @Test func aPlanarExportFromPiecesFollowsTheContoursMagnitude() throws {
        let options = GeoJSONOptions(precision: 3)
        let configuration = HeatMapConfiguration(
            radius: 0.9, contourLevels: 6, levelSpacing: .quantile, gridResolution: 70, projection: .planar)
        /// The field with its points' right edge at `right`: the frame's
        /// magnitude, the contours', and whether the export from pieces
        /// wrote the set's bytes in both polygon modes.
        func export(right: Double) throws -> (guess: Double, measured: Double, same: Bool) {
            var rng = SplitMix(seed: 51)
            let points = (0..<300).map { _ in
                HeatMapPoint(
                    latitude: 4 * rng.unit(), longitude: right - 6 * rng.unit() * rng.unit(), weight: 1 + rng.unit())
            }
            let lazy = try HeatMapContours.compute(from: points, configuration: configuration, control: .none)
            let set = try ContourBuilder.build(
                grid: lazy.grid, thresholds: lazy.thresholds, smoother: configuration.smoother)
            var measured = GeoJSONExport.Magnitude(), same = true
            for polygon in set.polygons(.levels).joined() { for p in polygon.exterior { measured.add(p) } }
            for mode in [ContourMode.bands, .levels] {
                let expected = try GeoJSONExport.contours(
                    set, projection: lazy.projection, units: lazy.units, mode: mode,
                    gradient: configuration.gradient, fillOpacity: configuration.fillOpacity, options: options)
                same = try same && GeoJSONExport.contours(lazy, mode: mode, options: options) == expected
            }
            return (try #require(lazy.source.magnitudeGuess), measured.value, same)
        }
        func layout(_ m: Double) -> GeoJSONExport.MagnitudeLayout {
            GeoJSONExport.MagnitudeLayout(magnitude: m, decimals: options.precision)
        }

        let far = try export(right: 120)
        #expect(far.same)
        #expect(far.measured < far.guess, "the contours end short of the frame")
        #expect(layout(far.measured) == layout(far.guess), "one pass")
        // Shifted so that 100 lies halfway between the contours' edge and the frame's.
        let between = try export(right: 120 + 100 - (far.guess + far.measured) / 2)
        #expect(between.same)
        #expect(between.measured < 100 && between.guess > 100)
        #expect(layout(between.measured) != layout(between.guess), "written again")
    }

    /// Bands and levels assembled from levels unprojected once each (as an
    /// export reads them) are the plane ones unprojected ring by ring:
    /// frame-closed rings (corners unprojected on their own), a band's
    /// holes (the level above, reversed) and pieces crossing ±180°.
    @Test(arguments: [PolygonSmoother.none, .chaikin(iterations: 2)])
    func rawLevelsGiveThePlanePolygonsUnprojected(smoother: PolygonSmoother) throws {
        // A kilometre a node, about the antimeridian.
        let field = ContourFixture.randomGrid(seed: 35, columns: 53, rows: 41, bumps: 20)
        let grid = DensityGrid(
            geometry: GridGeometry(columns: 53, rows: 41, x0: -26_000, y0: -20_000, dx: 1_000, dy: 1_000),
            values: field.values, projection: PlaneProjection(kind: .planar),
            radius: 1, estimator: .density, units: "per square unit")
        let thresholds = ThresholdResolver.thresholds(for: .quantile, levelCount: 7, grid: grid)
        let set = try ContourBuilder.build(grid: grid, thresholds: thresholds, smoother: smoother)
        let pieces = try ContourBuilder.pieces(grid: grid, thresholds: thresholds, smoother: smoother)
        let projection = PlaneProjection(kind: .equalArea, centreLatitude: -40, centreLongitude: 180)
        let geometry = LonLatGeometry(projection: projection)
        var holes = 0, crossing = 0
        for l in (0..<thresholds.count).reversed() + Array(0..<thresholds.count) {
            for mode in [ContourMode.bands, .levels] {
                let plane = try pieces.polygons(mode, level: l, control: .none)
                let expected = plane.map { geometry.raw($0) }
                let raw = try pieces.rawPolygons(mode, level: l, geometry: geometry, control: .none)
                #expect(raw == expected, "\(mode) \(l)")
                #expect(plane == (mode == .bands ? set.bands[l] : set.levels[l]))
                // West of ±180° and east of it, whichever turn raw longitudes are in.
                let turn = { (p: PlanePoint) in (p.x + 720).truncatingRemainder(dividingBy: 360) }
                let west = { (p: PlanePoint) in turn(p) > 179 && turn(p) < 180 }
                let east = { (p: PlanePoint) in turn(p) > 180 && turn(p) < 181 }
                crossing += raw.filter { $0.exterior.contains(where: west) && $0.exterior.contains(where: east) }.count
                holes += plane.reduce(0) { $0 + $1.holes.count }
            }
        }
        #expect(holes > 0 && crossing > 0)
    }
}
