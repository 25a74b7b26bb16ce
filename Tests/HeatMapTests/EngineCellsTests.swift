import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// Cells tables made by `contours sql` in DuckDB (Tests/Fixtures/cells,
/// see its README for the commands) finish into the grid the raw rows give,
/// and malformed or foreign tables are refused with one clear line.
@Suite struct EngineCellsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func fixture(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: root.appendingPathComponent("Tests/Fixtures/cells/\(name).cells.csv")))
    }

    static func sample(_ name: String) -> String { root.appendingPathComponent("Samples/data/\(name)").path }

    /// A fixture, the raw rows it was made from and the options the SQL had.
    struct Case: Sendable, CustomTestStringConvertible {
        var fixture: String
        var input: String
        var columns: PointColumns
        var configuration: HeatMapConfiguration
        var resolutionFromData = false
        /// The scheme the table must have.
        var scheme: CellScheme? = nil
        var testDescription: String { fixture }
    }

    /// A configuration with a finite kernel.
    static func kernel(
        _ kernel: DensityKernel, values: KernelValues = .density, _ configuration: HeatMapConfiguration
    ) -> HeatMapConfiguration {
        var c = configuration
        c.kernel = kernel
        c.kernelValues = values
        return c
    }

    static let cases: [Case] = [
        Case(
            fixture: "quakes-mag", input: "quakes_fiji.csv", columns: PointColumns(longitude: "long", weight: "mag"),
            configuration: HeatMapConfiguration(gridResolution: 40, bandwidth: .auto)),
        Case(
            fixture: "quakes-0-360", input: "quakes_fiji_0_360", columns: PointColumns(longitude: "long"),
            configuration: HeatMapConfiguration(radius: 150_000, gridResolution: 30)),
        Case(
            fixture: "ames-mean", input: "ames.csv",
            columns: PointColumns(latitude: "Latitude", longitude: "Longitude", value: "Sale_Price"),
            configuration: HeatMapConfiguration(radius: 1000, gridResolution: 30, estimator: .mean)),
        Case(
            fixture: "snow-scott", input: "snow_deaths.csv", columns: PointColumns(),
            configuration: HeatMapConfiguration(radius: 1, gridResolution: 30, projection: .planar, bandwidth: .scott)),
        Case(
            fixture: "quakes-quartic", input: "quakes_fiji.csv",
            columns: PointColumns(longitude: "long", weight: "mag"),
            configuration: kernel(.quartic, HeatMapConfiguration(gridResolution: 40, bandwidth: .auto)), scheme: .disc),
        Case(
            fixture: "storms-quartic-wide", input: "storms.csv",
            columns: PointColumns(longitude: "long", weight: "wind"),
            configuration: kernel(.quartic, HeatMapConfiguration(radius: 6_000_000, gridResolution: 100)),
            scheme: .cubic),
        Case(
            fixture: "storms-triweight-raw", input: "storms.csv",
            columns: PointColumns(longitude: "long", weight: "wind"),
            configuration: kernel(
                .triweight, values: .raw, HeatMapConfiguration(radius: 3_000_000, gridResolution: 80)),
            scheme: .cubic),
        Case(
            fixture: "ames-mean-epanechnikov", input: "ames.csv",
            columns: PointColumns(latitude: "Latitude", longitude: "Longitude", value: "Sale_Price"),
            configuration: kernel(
                .epanechnikov, HeatMapConfiguration(radius: 1000, gridResolution: 30, estimator: .mean)),
            scheme: .disc),
        Case(
            fixture: "snow-triangular", input: "snow_deaths.csv", columns: PointColumns(),
            configuration: kernel(
                .triangular(decay: 0.25),
                HeatMapConfiguration(radius: 1, gridResolution: 30, projection: .planar, bandwidth: .scott)),
            scheme: .disc)
    ]

    /// The raw rows' path: the quakes with longitudes in 0...360 are written out.
    static func rawPath(_ c: Case, folder: ScratchFolder) throws -> String {
        guard c.input == "quakes_fiji_0_360" else { return sample(c.input) }
        let text = try String(contentsOfFile: sample("quakes_fiji.csv"), encoding: .utf8)
        var lines = text.split(separator: "\n").map(String.init)
        for k in 1..<lines.count {
            var fields = lines[k].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if let lon = Double(fields[1]), lon < 0 { fields[1] = "\(lon + 360)" }
            lines[k] = fields.joined(separator: ",")
        }
        return try folder.write("quakes_0_360.csv", lines.joined(separator: "\n") + "\n")
    }

    @Test(arguments: cases)
    func cellsGiveTheRawRowsGrid(_ c: Case) throws {
        let folder = try ScratchFolder()
        let table = try CellTable.parse(try Self.fixture(c.fixture), name: c.fixture)
        let cells = try table.densityGrid()
        let options = PointReaderOptions(columns: c.columns, geographic: c.configuration.projection != .planar)
        let points = try StreamedPoints.read(path: try Self.rawPath(c, folder: folder), options: options)
        let raw = try StreamedDensity.compute(
            from: points, configuration: c.configuration,
            resolutionFromData: c.resolutionFromData
        ).grid
        #expect(table.points == points.count)
        if let scheme = c.scheme { #expect(table.scheme == scheme) }
        #expect(cells.kernel == raw.kernel && cells.kernelValues == raw.kernelValues)
        if c.configuration.estimator == .density { #expect(cells.units == raw.units) }
        #expect(cells.projection == raw.projection)
        let g = cells.geometry, r = raw.geometry
        #expect(g.columns == r.columns && g.rows == r.rows)
        if c.configuration.bandwidth == .scott {
            // The engine sums the variance in another order than the tool's running one.
            for (a, b) in [(g.x0, r.x0), (g.y0, r.y0), (g.dx, r.dx), (g.dy, r.dy)] {
                #expect(abs(a - b) <= 1e-12 * max(abs(b), r.dx))
            }
        } else {
            #expect(g == r)
        }
        let top = raw.values.filter { !$0.isNaN }.map(abs).max() ?? 1
        var worst = 0.0
        for (a, b) in zip(cells.values, raw.values) {
            #expect(a.isNaN == b.isNaN)
            if !a.isNaN && !b.isNaN { worst = max(worst, abs(a - b)) }
        }
        // Measured: 5e-7 (splat) to 1.4e-5 (Taylor) of the maximum; the
        // finite kernels' disc sums to 1.7e-7 (the tool's quartic splat is
        // single precision), their cubic sums 5e-16 (the raw rows' grid is
        // binned and convolved alike).
        #expect(worst <= 1e-4 * top, "\(worst / top) of the maximum")
    }

    /// The fixture's text with `edit` applied to its lines (0 the header).
    static func edited(_ name: String, _ edit: (inout [String]) -> Void) throws -> [UInt8] {
        var lines = String(decoding: try fixture(name), as: UTF8.self).split(separator: "\n").map(String.init)
        edit(&lines)
        return Array((lines.joined(separator: "\n") + "\n").utf8)
    }

    static func column(_ lines: [String], _ name: String) -> Int {
        CSVFields(Array(lines[0].utf8), 0, lines[0].utf8.count).texts(Array(lines[0].utf8)).firstIndex(of: name)!
    }

    static func setField(_ line: inout String, _ k: Int, _ value: String) {
        let bytes = Array(line.utf8)
        var fields = CSVFields(bytes, 0, bytes.count).texts(bytes)
        fields[k] = value
        line = fields.map { $0.isEmpty || $0.contains(",") ? "\"\($0)\"" : $0 }.joined(separator: ",")
    }

    @Test(arguments: [
        ("missing column", "lacks column 's7'"),
        ("geometry disagrees", "rows of one table share one grid"),
        ("node outside", "is outside the 32 × 40 grid"),
        ("node twice", "appears twice"),
        ("geometry off its box", "does not follow from the table's box"),
        ("foreign", "not a cells table"),
        ("header only", "has a header but no rows")
    ])
    func malformedTablesAreRefused(kind: String, message: String) throws {
        let bytes = try Self.edited("quakes-mag") { lines in
            switch kind {
            case "missing column":
                let k = Self.column(lines, "s7")
                for i in lines.indices {
                    var fields = CSVFields(Array(lines[i].utf8), 0, lines[i].utf8.count).texts(Array(lines[i].utf8))
                    fields.remove(at: k)
                    lines[i] = fields.map { $0.isEmpty && i > 0 ? "\"\"" : $0 }.joined(separator: ",")
                }
            case "geometry disagrees":
                Self.setField(&lines[3], Self.column(lines, "dx"), "55000")
            case "node outside":
                Self.setField(&lines[4], Self.column(lines, "i"), "32")
            case "node twice":
                lines.append(lines[5])
            case "geometry off its box":
                let k = Self.column(lines, "x0")
                for i in 1..<lines.count { Self.setField(&lines[i], k, "-1300000") }
            case "foreign":
                lines[0] = lines[0].replacingOccurrences(of: "contours_cells", with: "id")
            default:
                lines = [lines[0]]
            }
        }
        do {
            _ = try CellTable.parse(bytes, name: "t.csv")
            Issue.record("a \(kind) table was accepted")
        } catch let error as InputError {
            #expect(error.description.contains(message), "\(error)")
            #expect(!error.description.contains("\n"))
            #expect(error.description.hasPrefix("t.csv:"))
        }
    }

    /// A finite kernel's table names a kernel the tool knows, and a scheme
    /// that kernel takes at the table's width.
    @Test(arguments: [
        ("kernel", "cubicle", "unknown kernel 'cubicle'"),
        ("kernel", "triangular:2", "the decay must be in 0...1"),
        ("kernel", "gaussian", "scheme disc does not suit a kernel of"),
        ("kernel_values", "scaled", "unknown kernel values 'scaled'"),
        ("scheme", "cubic", "scheme cubic does not suit the quartic kernel")
    ])
    func finiteKernelTablesAreChecked(column: String, value: String, message: String) throws {
        let bytes = try Self.edited("quakes-quartic") { lines in
            let k = Self.column(lines, column)
            for i in 1..<lines.count { Self.setField(&lines[i], k, value) }
        }
        do {
            _ = try CellTable.parse(bytes, name: "t.csv")
            Issue.record("a table with \(column) \(value) was accepted")
        } catch let error as InputError {
            #expect(error.description.contains(message), "\(error)")
            #expect(!error.description.contains("\n"))
            #expect(error.description.hasPrefix("t.csv:2:\(column)") || column == "kernel", "\(error)")
        }
    }

    @Test func sqlQuotesOddNamesPerDialect() {
        let odd = CellQuery(
            dialect: .postgres, table: "my points", latitude: "Lat \"deg\"", longitude: "Long, W",
            weight: "wind kt", radius: 500)
        let pg = odd.sql()
        #expect(pg.contains("\"Lat \"\"deg\"\"\""))
        #expect(pg.contains("\"Long, W\""))
        #expect(pg.contains("FROM \"my points\""))
        #expect(pg.contains("DOUBLE PRECISION"))
        var spark = odd
        spark.dialect = .spark
        spark.latitude = "a`b"
        let text = spark.sql()
        #expect(text.contains("`a``b`"))
        #expect(!text.contains("DOUBLE PRECISION"))
        var duck = odd
        duck.dialect = .duckdb
        duck.table = "read_parquet('p.parquet')"
        #expect(duck.sql().contains("FROM read_parquet('p.parquet')"))
    }

    /// PostgreSQL inlines what it may and re-evaluates substituted
    /// expressions in every reader: its statement keeps the one-row steps
    /// materialised and each per-point subquery fenced; the other dialects'
    /// statements have neither.
    @Test(arguments: [Bandwidth.auto, .silverman])
    func postgresStepsAreNotInlined(rule: Bandwidth) {
        var q = CellQuery(
            dialect: .postgres, table: "t", latitude: "lat", longitude: "lon", weight: "w",
            bandwidth: rule, radius: 500)
        let steps = q.sql().split(separator: "\n").filter { $0.hasSuffix(" (") && !$0.hasPrefix(" ") }
        #expect(steps.count > 20)
        for step in steps {
            let name = step.split(separator: " ")[0]
            let inlined = ["src", "binned", "cells"].contains(name)
            #expect(step.contains("AS MATERIALIZED") != inlined, "\(step)")
        }
        // binned, its five nested subqueries and the plane's three.
        #expect(q.sql().components(separatedBy: " OFFSET 0").count - 1 == 9)
        for dialect in [CellQuery.Dialect.duckdb, .spark] {
            q.dialect = dialect
            #expect(!q.sql().contains("MATERIALIZED") && !q.sql().contains("OFFSET"))
        }
    }

    @Test func sqlConstantsAreExactDoubles() {
        let q = CellQuery(dialect: .duckdb, table: "t", latitude: "lat", longitude: "lon", radius: 500)
        for x in [Double.pi / 180, PlaneProjection.authalicRadius, 1e-15, 0.85, -1.0 / 6] {
            let text = q.number(x)
            let inner =
                text.split(separator: "'").dropFirst().first.map(String.init)
                ?? String(text.dropFirst(5).prefix { $0 != " " })
            #expect(Double(inner) == x, "\(text)")
        }
    }

    @Test func schemesCoverEveryKernelWidth() {
        var previous = Int.max
        for s in stride(from: 0.01, through: 40, by: 0.01) {
            switch CellScheme.choose(sigmaInCells: s) {
            case .splat: #expect(s < CellScheme.splatBelow)
            case .taylor(let order):
                #expect(s >= CellScheme.splatBelow && order <= CellScheme.maximumOrder)
                #expect(order <= previous)
                previous = order
            case .disc, .cubic: Issue.record("the Gaussian took a finite kernel's scheme at \(s) cells")
            }
        }
        let indices = (0...CellScheme.maximumOrder).flatMap { n in
            (0...(CellScheme.maximumOrder - n)).map { m in CellScheme.momentIndex(m: m, n: n) }
        }
        #expect(indices == Array(0..<45))
        #expect(indices.count <= CellScheme.sumCount)
    }

    /// A finite kernel's table may hold the disc at every width, and the
    /// cubic sums only for a density where the tool's own binning is
    /// accurate (``DensityPlan/convolutionRadiusInCells(_:)``); the
    /// Gaussian's schemes suit it alone.
    @Test(arguments: [DensityKernel.quartic, .epanechnikov, .triweight, .triangular(decay: 0.5), .uniform])
    func finiteKernelsTakeTheDiscOrTheCubicSums(kernel: DensityKernel) {
        for cells in stride(from: 0.5, through: 60, by: 0.5) {
            func suits(_ scheme: CellScheme, _ estimator: DensityEstimator = .density) -> Bool {
                scheme.suits(kernel: kernel, radius: cells * 2, dx: 2, dy: 1.5, estimator: estimator)
            }
            let wide = DensityPlan.convolutionRadiusInCells(kernel).map { cells >= $0 } ?? false
            #expect(suits(.disc) && suits(.disc, .mean), "\(kernel.name) at \(cells) cells")
            #expect(suits(.cubic) == wide && !suits(.cubic, .mean), "\(kernel.name) at \(cells) cells")
            #expect(!suits(.splat) && !suits(.taylor(order: 4)))
        }
        #expect(CellScheme.splat.suits(kernel: .gaussian, radius: 1, dx: 2, dy: 2, estimator: .density))
        #expect(!CellScheme.disc.suits(kernel: .gaussian, radius: 1, dx: 2, dy: 2, estimator: .density))
    }

    /// Every dialect's statement for a finite kernel reads the points in
    /// steps PostgreSQL may inline (a per-point step materialized would
    /// write every point's pairs out), names the kernel, and carries 16
    /// sums per channel.
    @Test(arguments: CellQuery.Dialect.allCases)
    func finiteKernelStatementsPerDialect(dialect: CellQuery.Dialect) {
        let q = CellQuery(
            dialect: dialect, table: "t", latitude: "lat", longitude: "lon", weight: "w", value: "v",
            kernel: .triangular(decay: 0.25), kernelValues: .raw, radius: 500)
        let sql = q.sql()
        let steps = sql.split(separator: "\n").filter { $0.hasSuffix(" (") && !$0.hasPrefix(" ") }
        for step in steps {
            let name = step.split(separator: " ")[0]
            let inlined = ["src", "discpts", "xs", "pairs", "cubicpts", "cells"].contains(name)
            #expect(step.contains("AS MATERIALIZED") == (dialect == .postgres && !inlined), "\(step)")
        }
        #expect(sql.contains("'triangular:0.25' AS kernel, 'raw' AS kernel_values"))
        #expect(sql.contains("s.v15") && !sql.contains("s.v16"))
        let series = ["duckdb": "UNNEST(RANGE(", "postgres": "GENERATE_SERIES(", "spark": "EXPLODE(SEQUENCE("]
        #expect(sql.contains(series[dialect.rawValue]!))
    }

    @Test func toolFinishesFromCellsAndRefusesGridOptions() throws {
        let path = Self.root.appendingPathComponent("Tests/Fixtures/cells/quakes-mag.cells.csv").path
        let info = try Tool.run(["info", path])
        #expect(info.status == 0)
        #expect(info.stdout.contains("cells table"))
        #expect(info.stdout.contains("32 × 40 nodes"))
        let export = try Tool.run(["export", path])
        #expect(export.status == 0)
        #expect(export.stdout.contains("\"threshold\""))
        let piped = try Tool.run(["grid", "-", "--input-format", "cells"], stdin: path)
        #expect(piped.status == 0)
        #expect(piped.stdout == (try Tool.run(["grid", path])).stdout)
        for option in [["--radius", "5km"], ["--resolution", "80"], ["--weight", "mag"], ["--planar"]] {
            let refused = try Tool.run(["grid", path] + option)
            #expect(refused.status == 2)
            #expect(refused.stderrLines.count == 1)
            #expect(refused.stderr.contains("\(option[0]) cannot apply"))
        }
        let h3 = try Tool.run(["grid", path, "--h3", "h3"])
        #expect(h3.status == 2)
        #expect(h3.stderrLines.count == 1)
        #expect(h3.stderr.contains("--h3 reads H3 cell ids"))
    }

    @Test func aWebMercatorTableWiderThanTheGlobeIsRefused() throws {
        // Points 90° apart round the equator with a 4500 km radius: the
        // engine's grid spans about 367° of longitude (the fixtures' README).
        let path = Self.root.appendingPathComponent("Tests/Fixtures/cells/wide-mercator.cells.csv").path
        let run = try Tool.run(["export", path])
        #expect(run.status == 1)
        #expect(run.stderrLines.count == 1)
        #expect(run.stderr.contains("degrees of longitude, more than the globe, in the web-mercator projection"))
    }

    @Test func toolPrintsTheStatement() throws {
        let run = try Tool.run(["sql", "--dialect", "spark", "--table", "stops", "--lat", "Lat (°)", "--lon", "lon`x"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("`Lat (°)`") && run.stdout.contains("`lon``x`"))
        #expect(run.stdout.contains("FROM stops"))
        #expect(!run.stdout.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix(";"))
        #expect(try Tool.run(["sql"]).status == 2)
        #expect(try Tool.run(["sql", "--table", "t", "--dialect", "oracle"]).status == 2)
    }
}
