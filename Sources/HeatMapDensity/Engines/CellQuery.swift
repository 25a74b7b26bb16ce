import Foundation
import HeatMapCore

/// One SQL statement that makes a database engine compute, from a table of
/// points, the cells table ``CellTable`` reads: everything the tool would
/// compute from the rows itself (rows it would reject left out and
/// counted, the longitude arc and projection centre, the plane box, the
/// radius rule, the grid geometry), then each point's node and the sums of
/// ``CellScheme``, grouped per node. Plain SQL arithmetic and
/// trigonometry only: no extension, no user function.
///
/// The planner's arithmetic is restated operation for operation, with
/// every constant written as the exact double it is, so an engine whose
/// `sin`, `cos` and `sqrt` are the platform's (DuckDB, PostgreSQL) gives
/// the tool's geometry bit for bit; ``CellTable`` checks that the
/// geometry follows from the box.
package struct CellQuery: Sendable {
    /// The SQL dialect to write.
    package enum Dialect: String, Sendable, CaseIterable {
        case duckdb, spark, postgres
    }

    package var dialect: Dialect
    /// The table: a name (quoted when it is not a plain, possibly dotted,
    /// identifier) or a table expression such as `read_parquet('p.parquet')`.
    package var table: String
    package var latitude: String
    package var longitude: String
    package var weight: String?
    package var value: String?
    package var projection: MapProjection
    package var bandwidth: Bandwidth
    /// The kernel: the Gaussian's sums are moments or a splat, a finite
    /// kernel's the exact sum at each node of its disc (``CellScheme``).
    package var kernel: DensityKernel
    /// Density values, or raw kernel sums (the finish's scale only).
    package var kernelValues: KernelValues
    /// The fixed radius, or the one a rule falls back on.
    package var radius: Double
    /// The grid resolution; nil takes it from the data with `.auto` (else 100).
    package var resolution: Int?
    package var padding: Double

    /// Creates a query.
    package init(
        dialect: Dialect, table: String, latitude: String, longitude: String, weight: String? = nil,
        value: String? = nil, projection: MapProjection = .equalArea, bandwidth: Bandwidth = .auto,
        kernel: DensityKernel = .gaussian, kernelValues: KernelValues = .density,
        radius: Double, resolution: Int? = nil, padding: Double = 1.5
    ) {
        self.dialect = dialect
        self.table = table
        self.latitude = latitude
        self.longitude = longitude
        self.weight = weight
        self.value = value
        self.projection = projection
        self.bandwidth = bandwidth
        self.kernel = kernel
        self.kernelValues = kernelValues
        self.radius = radius
        self.resolution = resolution
        self.padding = padding
    }

    /// A column name quoted for the dialect.
    func identifier(_ name: String) -> String {
        switch dialect {
        case .spark: return "`" + name.replacingOccurrences(of: "`", with: "``") + "`"
        case .duckdb, .postgres: return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
    }

    /// A string literal for the dialect.
    package func string(_ text: String) -> String {
        var t = text.replacingOccurrences(of: "'", with: "''")
        if dialect == .spark { t = t.replacingOccurrences(of: "\\", with: "\\\\") }
        return "'" + t + "'"
    }

    private var double: String { dialect == .postgres ? "DOUBLE PRECISION" : "DOUBLE" }

    /// PostgreSQL pulls a plain subquery up into its reader and substitutes
    /// its expressions wherever a column is named, without sharing them: a
    /// point's taps and powers were recomputed in each of the sums that read
    /// them. `OFFSET 0` keeps a subquery a step of its own, each value
    /// computed once per row.
    private var fence: String { dialect == .postgres ? " OFFSET 0" : "" }

    /// The steps PostgreSQL may inline: those read row by row, once. Every
    /// other step (one row, or a few thousand) it keeps as computed once
    /// (`MATERIALIZED`); inlined, the chain of one-row steps from the box to
    /// the geometry would grow into an expression tree exponential in its
    /// length, re-evaluated for every point.
    private static let streamed: Set<String> = ["src", "binned", "cells", "discpts", "xs", "pairs", "cubicpts"]

    private func header(_ name: String) -> String {
        dialect == .postgres && !Self.streamed.contains(name) ? "\(name) AS MATERIALIZED" : "\(name) AS"
    }

    /// `x` as the exact double it is (a decimal literal may be read as a
    /// DECIMAL and rounded otherwise).
    package func number(_ x: Double) -> String {
        if x == x.rounded(), abs(x) < 1e15 { return "CAST(\(Int(x)) AS \(double))" }
        return "CAST('\(x)' AS \(double))"
    }

    private var tableExpression: String {
        let plain = table.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
        return plain || table.contains("(") ? table : identifier(table)
    }

    /// CASE for LongitudeArc.normalized on a difference in (−360, 540).
    private func normalized(_ d: String) -> String {
        "(CASE WHEN \(d) >= 180 THEN \(d) - 360 WHEN \(d) < -180 THEN \(d) + 360 ELSE \(d) END)"
    }

    private func finite(_ x: String) -> String { "(\(x) - \(x) = 0)" }

    /// The statement, without a closing semicolon so that it can be
    /// wrapped, e.g. in `COPY (…) TO …`.
    package func sql() -> String {
        let geographic = projection != .planar
        let mean = value != nil
        let rad = number(Double.pi / 180)
        let w = weight.map { "CAST(\(identifier($0)) AS \(double))" } ?? number(1)
        let v = value.map { "CAST(\(identifier($0)) AS \(double))" } ?? number(0)
        var ctes: [(String, String)] = []

        ctes.append(
            (
                "src",
                """
                SELECT CAST(\(identifier(latitude)) AS \(double)) AS lat, CAST(\(identifier(longitude)) AS \(double)) AS lon,
                       \(w) AS w, \(v) AS v
                FROM \(tableExpression)
                """
            ))
        var finiteAll = [finite("lat"), finite("lon"), finite("w")]
        if mean { finiteAll.append(finite("v")) }
        let latitudeBad = geographic ? "lat < -90 OR lat > 90" : "1 = 0"
        let longitudeBad = geographic ? "lon < -180 OR lon >= 360" : "1 = 0"
        ctes.append(
            (
                "checked",
                """
                SELECT lat, lon, w, v,
                       CASE WHEN \(finiteAll.joined(separator: " AND ")) THEN
                         CASE WHEN \(latitudeBad) THEN 2 WHEN \(longitudeBad) THEN 3 WHEN w < 0 THEN 4 ELSE 0 END
                       ELSE 1 END AS bad
                FROM src
                """
            ))
        ctes.append(("good", "SELECT lat, lon, w, v FROM checked WHERE bad = 0"))
        ctes.append(
            (
                "rejects",
                """
                SELECT SUM(CASE WHEN bad = 1 THEN 1 ELSE 0 END) AS r1, SUM(CASE WHEN bad = 2 THEN 1 ELSE 0 END) AS r2,
                       SUM(CASE WHEN bad = 3 THEN 1 ELSE 0 END) AS r3, SUM(CASE WHEN bad = 4 THEN 1 ELSE 0 END) AS r4
                FROM checked
                """
            ))
        // Pass 1: latitude range and, per 0.1° of longitude, the extremes
        // (InputStatistics' table): the widest gap between neighbouring
        // occupied bins, or the one round the back, is left out of the arc.
        ctes.append(
            (
                "first",
                """
                SELECT COUNT(*) AS n, MIN(lat) AS lat_lo, MAX(lat) AS lat_hi, MIN(lon) AS lon_lo, MAX(lon) AS lon_hi
                FROM good
                """
            ))
        ctes.append(
            (
                "bins",
                """
                SELECT k, MIN(l) AS lo, MAX(l) AS hi FROM (
                  SELECT l, LEAST(GREATEST(FLOOR((l + 180) * 10), 0), 3599) AS k
                  FROM (SELECT CASE WHEN lon >= 180 THEN lon - 360 ELSE lon END AS l FROM good) a
                ) b GROUP BY k
                """
            ))
        ctes.append(("gaps", "SELECT k, lo, lo - LAG(hi) OVER (ORDER BY k) AS gap FROM bins"))
        ctes.append(("inner_gap", "SELECT lo, gap FROM gaps WHERE gap IS NOT NULL ORDER BY gap DESC, k ASC LIMIT 1"))
        ctes.append(("ends", "SELECT MIN(lo) AS lo, MAX(hi) AS hi FROM bins"))
        ctes.append(
            (
                "arc0",
                """
                SELECT CASE WHEN g.gap > e.lo + 360 - e.hi THEN g.lo ELSE e.lo END AS west,
                       CASE WHEN g.gap > e.lo + 360 - e.hi THEN g.gap ELSE e.lo + 360 - e.hi END AS widest
                FROM ends e LEFT JOIN inner_gap g ON 1 = 1
                """
            ))
        ctes.append(
            (
                "arc",
                """
                SELECT CASE WHEN widest < \(number(0.1)) THEN -180 ELSE west END AS west,
                       CASE WHEN widest < \(number(0.1)) THEN 360 ELSE 360 - widest END AS width
                FROM arc0
                """
            ))
        if geographic {
            ctes.append(
                (
                    "centre",
                    """
                    SELECT (f.lat_lo + f.lat_hi) / 2 AS clat, \(normalized("(a.west + a.width / 2)")) AS clon,
                           a.west AS lon_west, \(normalized("(a.west + a.width)")) AS lon_east
                    FROM first f CROSS JOIN arc a
                    """
                ))
        } else {
            ctes.append(("centre", "SELECT 0 AS clat, 0 AS clon, lon_lo AS lon_west, lon_hi AS lon_east FROM first"))
        }
        // Pass 2: the plane (PlaneProjection.project, operation for operation).
        let r = number(PlaneProjection.authalicRadius)
        let plane: String
        switch projection {
        case .planar:
            plane = "SELECT lon AS x, lat AS y, w, v FROM good"
        case .equalArea:
            plane = """
                SELECT \(r) * k * cp * sd AS x, \(r) * k * (cp0 * sp - sp0 * cp * cd) AS y, w, v FROM (
                  SELECT w, v, cp, sp, cp0, sp0, cd, sd,
                         SQRT(2 / GREATEST(1 + (sp0 * sp + cp0 * cp * cd), \(number(1e-15)))) AS k
                  FROM (
                    SELECT w, v, COS(phi) AS cp, SIN(phi) AS sp, COS(phi0) AS cp0, SIN(phi0) AS sp0,
                           COS(dl) AS cd, SIN(dl) AS sd
                    FROM (SELECT w, v, lat * \(rad) AS phi, c.clat * \(rad) AS phi0,
                                 \(normalized("(lon - c.clon)")) * \(rad) AS dl
                          FROM good CROSS JOIN centre c\(fence)) a
                  \(fence)) b
                \(fence)) t
                """
        case .equirectangular:
            plane = """
                SELECT \(r) * (\(normalized("(lon - c.clon)")) * \(rad)) * COS(c.clat * \(rad)) AS x,
                       \(r) * (lat - c.clat) * \(rad) AS y, w, v
                FROM good CROSS JOIN centre c
                """
        case .webMercator:
            let limit = number(PlaneProjection.mercatorLatitudeLimit)
            let m = number(PlaneProjection.mercatorRadius)
            plane = """
                SELECT \(m) * (\(normalized("(lon - c.clon)")) * \(rad)) AS x,
                       \(m) * LN(TAN(\(number(Double.pi / 4)) + LEAST(GREATEST(lat, -\(limit)), \(limit)) * \(rad) / 2)) AS y, w, v
                FROM good CROSS JOIN centre c
                """
        }
        ctes.append(("plane", plane))
        // Spread about a shift (the centre projects near 0; planar data is
        // shifted by its first corner) keeps the variance's sums exact enough.
        let (shiftX, shiftY) = geographic ? ("0", "0") : ("f.lon_lo", "f.lat_lo")
        ctes.append(
            (
                "box",
                """
                SELECT MIN(x) AS bx0, MAX(x) AS bx1, MIN(y) AS by0, MAX(y) AS by1,
                       MIN(CASE WHEN w > 0 THEN x END) AS wx0, MAX(CASE WHEN w > 0 THEN x END) AS wx1,
                       MIN(CASE WHEN w > 0 THEN y END) AS wy0, MAX(CASE WHEN w > 0 THEN y END) AS wy1,
                       SUM(CASE WHEN w > 0 THEN 1 ELSE 0 END) AS wn, SUM(w) AS sw, SUM(w * w) AS sww,
                       SUM(w * (x - \(shiftX))) AS swx, SUM(w * (y - \(shiftY))) AS swy,
                       SUM(w * (x - \(shiftX)) * (x - \(shiftX))) AS swxx, SUM(w * (y - \(shiftY)) * (y - \(shiftY))) AS swyy
                FROM plane CROSS JOIN first f
                """
            ))
        if bandwidth == .silverman {
            // BandwidthEstimator's weighted quartiles: the first value whose
            // running weight, in ascending order, reaches q · Σw.
            for axis in ["x", "y"] {
                ctes.append(
                    (
                        "q\(axis)",
                        """
                        SELECT \(axis) AS q, SUM(w) OVER (ORDER BY \(axis) ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS cw
                        FROM plane WHERE w > 0
                        """
                    ))
            }
            // Aggregates over a join rather than scalar subqueries, which
            // Spark 4's planner fails on here (an unresolved attribute).
            func quartiles(_ axis: String) -> String {
                func quartile(_ share: Double) -> String {
                    "COALESCE(MIN(CASE WHEN cw >= \(number(share)) * sw THEN q END), MAX(q))"
                }
                return
                    "(SELECT \(quartile(0.25)) AS q\(axis)1, \(quartile(0.75)) AS q\(axis)3 FROM q\(axis) CROSS JOIN box) \(axis)q"
            }
            ctes.append(
                (
                    "quartiles",
                    """
                    SELECT xq.qx1, xq.qx3, yq.qy1, yq.qy3
                    FROM \(quartiles("x")) CROSS JOIN \(quartiles("y"))
                    """
                ))
        }
        ctes.append(("rule", radiusRule(geographic: geographic)))
        ctes.append(("floored", floorRule()))
        ctes.append(
            (
                "fit0",
                """
                SELECT f.*, padding * radius AS pad FROM (SELECT r.*, \(number(padding)) AS padding FROM floored r) f
                """
            ))
        ctes.append(
            (
                "fit1",
                """
                SELECT f.*, bx0 - pad AS ax0, bx1 + pad AS ax1, by0 - pad AS ay0, by1 + pad AS ay1 FROM fit0 f
                """
            ))
        ctes.append(
            (
                "fit2",
                """
                SELECT f.*,
                       CASE WHEN ax1 - ax0 <= 0 THEN ax0 - GREATEST(radius, \(number(1e-9))) ELSE ax0 END AS minx,
                       CASE WHEN ax1 - ax0 <= 0 THEN ax1 + GREATEST(radius, \(number(1e-9))) ELSE ax1 END AS maxx,
                       CASE WHEN ay1 - ay0 <= 0 THEN ay0 - GREATEST(radius, \(number(1e-9))) ELSE ay0 END AS miny,
                       CASE WHEN ay1 - ay0 <= 0 THEN ay1 + GREATEST(radius, \(number(1e-9))) ELSE ay1 END AS maxy,
                       GREATEST(res, 2) AS res2
                FROM fit1 f
                """
            ))
        ctes.append(
            (
                "fit3",
                """
                SELECT f.*,
                       CASE WHEN maxy - miny >= maxx - minx
                            THEN GREATEST(2, CAST(FLOOR(LEAST(CAST(res2 AS \(double)) * (maxx - minx) / (maxy - miny), CAST(res2 AS \(double)))) AS INTEGER))
                            ELSE res2 END AS ncols,
                       CASE WHEN maxy - miny >= maxx - minx THEN res2
                            ELSE GREATEST(2, CAST(FLOOR(LEAST(CAST(res2 AS \(double)) * (maxy - miny) / (maxx - minx), CAST(res2 AS \(double)))) AS INTEGER))
                            END AS nrows
                FROM fit2 f
                """
            ))
        ctes.append(
            (
                "fit4",
                """
                SELECT f.*, (maxx - minx) / ncols AS dx, (maxy - miny) / nrows AS dy FROM fit3 f
                """
            ))
        var orderCase = "CASE"
        for (least, order) in CellScheme.taylorOrders {
            orderCase += " WHEN radius / 3 / GREATEST(dx, dy) >= \(number(least)) THEN \(order)"
        }
        orderCase += " ELSE 0 END"
        ctes.append(
            (
                "geometry",
                """
                SELECT f.*, minx + dx / 2 AS x0, miny + dy / 2 AS y0, radius / 3 AS sigma, \(orderCase) AS torder
                FROM fit4 f
                """
            ))
        ctes += kernel.isFinite ? finiteCells(mean: mean) : gaussianCells(mean: mean)

        let schemeColumns =
            kernel.isFinite
            ? "CASE WHEN g.cubic = 1 THEN 'cubic' ELSE 'disc' END AS scheme, 0 AS \(identifier("order"))"
            : "CASE WHEN g.torder = 0 THEN 'splat' ELSE 'taylor' END AS scheme, g.torder AS \(identifier("order"))"
        let units = value ?? ""
        let meta = """
            1 AS contours_cells, \(schemeColumns),
              \(string(kernel.name)) AS kernel, \(string(kernelValues.rawValue)) AS kernel_values,
              g.ncols AS columns, g.nrows AS \(identifier("rows")), g.x0, g.y0, g.dx, g.dy, g.radius,
              \(string(bandwidth.rawValue)) AS bandwidth, g.raised AS radius_raised, g.res AS resolution, g.padding,
              \(string(projection.rawValue)) AS projection, c.clat AS centre_lat, c.clon AS centre_lon,
              \(string(mean ? "mean" : "density")) AS estimator, \(string(units)) AS units,
              f.n AS points, g.wn AS weighted_points, g.sw AS total_weight,
              q.r1 AS rejected_nonfinite, q.r2 AS rejected_latitude, q.r3 AS rejected_longitude, q.r4 AS rejected_weight,
              g.bx0 AS box_min_x, g.bx1 AS box_max_x, g.by0 AS box_min_y, g.by1 AS box_max_y,
              f.lat_lo AS lat_min, f.lat_hi AS lat_max, c.lon_west, c.lon_east
            """
        let sumsPerChannel = kernel.isFinite ? CellScheme.finiteSumCount : CellScheme.sumCount
        let cellColumns =
            ["n"] + (mean ? ["s", "v"] : ["s"]).flatMap { ch in (0..<sumsPerChannel).map { "\(ch)\($0)" } }
        let select = """
            SELECT \(meta),
              s.i, s.j, \(cellColumns.map { "s.\($0)" }.joined(separator: ", "))
            FROM \(kernel.isFinite ? "fscheme" : "geometry") g CROSS JOIN first f CROSS JOIN centre c CROSS JOIN rejects q
            LEFT JOIN cells s ON 1 = 1
            ORDER BY s.j, s.i
            """
        return "WITH\n" + ctes.map { "\(header($0.0)) (\n\(indent($0.1))\n)" }.joined(separator: ",\n") + "\n" + select
            + "\n"
    }

    /// A finite kernel's pass 3, either scheme of ``CellScheme`` as the
    /// radius in cells decides in the engine (`fscheme`): for `.disc`, each
    /// point against the nodes of the square of offsets round its nearest
    /// node that lie in the grid, column by column and then row by row,
    /// kept where the distance is at most the radius, and w × shape((d / r)²)
    /// summed per node; for `.cubic`, each point's 4 × 4 cubic weights
    /// summed per cell. Sixteen sum columns per channel either way (the
    /// disc's first alone set).
    private func finiteCells(mean: Bool) -> [(String, String)] {
        // DensityPlan.discScheme: wide enough in cells for the binning to
        // keep the kernel exact enough, and enough points that the
        // transforms cost less than their splat (its cost model, with the
        // good rows' count as the tool's point count); never for a mean.
        let cells = "(CAST(ncols AS \(double)) * nrows)"
        let binnedCost =
            "(f.n * \(number(60)) + 3 * \(cells) * (LN(GREATEST(\(cells), 2)) / LN(2) + 1) * 6)"
        let splatCost = "(f.n * (80 + \(number(Double.pi)) * (radius / dx) * (radius / dy)))"
        let cubic =
            mean
            ? "0"
            : DensityPlan.convolutionRadiusInCells(kernel).map {
                "CASE WHEN LEAST(radius / dx, radius / dy) >= \(number($0)) AND \(binnedCost) < \(splatCost) THEN 1 ELSE 0 END"
            } ?? "0"
        // Half the square's side: every node within r of a point lies
        // within r/δ + ½ nodes of its nearest (one more for rounding), and
        // no square needs more than the grid; none for the cubic scheme.
        let half =
            "CASE WHEN cubic = 1 THEN 0 ELSE CAST(LEAST(FLOOR(GREATEST(radius / dx, radius / dy) + 0.5) + 1, GREATEST(ncols, nrows)) AS BIGINT) END"
        let offsets: String
        switch dialect {
        case .duckdb: offsets = "SELECT UNNEST(RANGE(-h, h + 1)) AS k FROM (SELECT \(half) AS h FROM fscheme) t"
        case .postgres: offsets = "SELECT GENERATE_SERIES(-h, h) AS k FROM (SELECT \(half) AS h FROM fscheme) t"
        case .spark: offsets = "SELECT EXPLODE(SEQUENCE(-h, h)) AS k FROM (SELECT \(half) AS h FROM fscheme) t"
        }
        let u2 = "((ddx * ddx + ddy * ddy) / (radius * radius))"
        let shape: String
        switch kernel {
        case .gaussian: shape = "EXP(\(number(-4.5)) * \(u2))"  // not reached: the Gaussian has its own schemes
        case .quartic: shape = "(1 - \(u2)) * (1 - \(u2))"
        case .epanechnikov: shape = "(1 - \(u2))"
        case .triweight: shape = "(1 - \(u2)) * (1 - \(u2)) * (1 - \(u2))"
        case .triangular(let decay): shape = "(1 - \(number(1 - decay)) * SQRT(\(u2)))"
        case .uniform: shape = "1"
        }
        let channels = mean ? ["s", "v"] : ["s"]
        let count = CellScheme.finiteSumCount
        var discSums = ["COUNT(*) AS n"]
        var cubicSums = ["COUNT(*) AS n"]
        for channel in channels {
            let w = channel == "s" ? "w" : "w * v"
            discSums.append("SUM(\(w) * \(shape)) AS \(channel)0")
            discSums += (1..<count).map { "CAST(NULL AS \(double)) AS \(channel)\($0)" }
            cubicSums += (0..<count).map { "SUM(\(w) * lx\($0 % 4) * ly\($0 / 4)) AS \(channel)\($0)" }
        }
        // CubicBinning.weights: the cubic Lagrange weights of nodes −1…2 at t in [0, 1).
        func weights(_ axis: String) -> String {
            let (t, a, b, c) = ("t\(axis)", "(t\(axis) + 1)", "(t\(axis) - 1)", "(t\(axis) - 2)")
            return [
                "-\(t) * \(b) * \(c) / 6 AS l\(axis)0", "3 * \(a) * \(c) * \(b) / 6 AS l\(axis)1",
                "-3 * \(a) * \(c) * \(t) / 6 AS l\(axis)2", "\(t) * \(b) * \(a) / 6 AS l\(axis)3"
            ].joined(separator: ", ")
        }
        return [
            ("fscheme", "SELECT g.*, \(cubic) AS cubic FROM geometry g CROSS JOIN first f"),
            (
                "discpts",
                """
                SELECT p.w, p.v, p.x AS px, p.y AS py,
                       CAST(FLOOR((p.x - g.x0) / g.dx + 0.5) AS BIGINT) AS i0, CAST(FLOOR((p.y - g.y0) / g.dy + 0.5) AS BIGINT) AS j0
                FROM plane p CROSS JOIN fscheme g WHERE p.w > 0 AND g.cubic = 0
                """
            ),
            ("offsets", offsets),
            (
                "xs",
                """
                SELECT w, v, py, j0, i, ddx FROM (
                  SELECT d.w, d.v, d.py, d.j0, d.i0 + o.k AS i, g.x0 + (d.i0 + o.k) * g.dx - d.px AS ddx, g.ncols, g.radius
                  FROM discpts d CROSS JOIN offsets o CROSS JOIN geometry g\(fence)
                ) t WHERE i >= 0 AND i < ncols AND ddx * ddx <= radius * radius
                """
            ),
            (
                "pairs",
                """
                SELECT w, v, i, j, ddx, ddy, radius FROM (
                  SELECT x.w, x.v, x.i, x.j0 + o.k AS j, x.ddx, g.y0 + (x.j0 + o.k) * g.dy - x.py AS ddy, g.nrows, g.radius
                  FROM xs x CROSS JOIN offsets o CROSS JOIN geometry g\(fence)
                ) t WHERE j >= 0 AND j < nrows AND ddx * ddx + ddy * ddy <= radius * radius
                """
            ),
            (
                "cubicpts",
                """
                SELECT w, v, i, j, \(weights("x")), \(weights("y")) FROM (
                  SELECT w, v, i, j, fx - i AS tx, fy - j AS ty FROM (
                    SELECT w, v, fx, fy, CAST(FLOOR(fx) AS BIGINT) AS i, CAST(FLOOR(fy) AS BIGINT) AS j FROM (
                      SELECT p.w, p.v, (p.x - g.x0) / g.dx AS fx, (p.y - g.y0) / g.dy AS fy
                      FROM plane p CROSS JOIN fscheme g WHERE p.w > 0 AND g.cubic = 1\(fence)
                    ) a\(fence)
                  ) b\(fence)
                ) c
                """
            ),
            (
                "cells",
                "SELECT i, j, " + discSums.joined(separator: ", ") + "\nFROM pairs GROUP BY i, j\nUNION ALL\n"
                    + "SELECT i, j, " + cubicSums.joined(separator: ", ") + "\nFROM cubicpts GROUP BY i, j"
            )
        ]
    }

    /// The Gaussian's pass 3: each point's nearest node and offsets, the
    /// splat's kernel factors or the Taylor moments (``CellScheme``), and
    /// their sums per node.
    private func gaussianCells(mean: Bool) -> [(String, String)] {
        var ctes: [(String, String)] = []
        // The splat's half-widths (CellScheme.splatReach).
        let reach =
            "SQRT((\(number(DensityPlan.automaticReachInSigmas)) * sigma) * (\(number(DensityPlan.automaticReachInSigmas)) * sigma) + (dx * dx + dy * dy) / 4)"
        ctes.append(
            (
                "reach0",
                """
                SELECT g.*, \(reach) AS rch, LEAST(FLOOR(\(reach) / dx + 0.5), \(CellScheme.splatHalf)) AS hx,
                       LEAST(FLOOR(\(reach) / dy + 0.5), \(CellScheme.splatHalf)) AS hy
                FROM geometry g
                """
            ))
        // DirectSplat's footprint: the whole square of taps for a point
        // whose block of columns (rounded up to 4) lies inside the grid,
        // else per row of offset a the disc's chord.
        var chords: [String] = []
        for a in 0...CellScheme.splatHalf {
            let dyA = "(GREATEST(0, \(number(Double(a) - 0.5))) * dy)"
            let left = "(rch * rch - \(dyA) * \(dyA))"
            chords.append(
                "CASE WHEN \(left) < 0 THEN -1 ELSE LEAST(hx, FLOOR(SQRT(GREATEST(\(left), 0)) / dx + 0.5)) END AS ch\(a)"
            )
        }
        ctes.append(
            (
                "reach",
                """
                SELECT g.*, FLOOR((2 * hx + 1 + 3) / 4) * 4 AS stride, \(chords.joined(separator: ", "))
                FROM reach0 g
                """
            ))
        // Pass 3: each point's nearest node and offsets, then the sums.
        let half = CellScheme.splatHalf
        let taps = Array(-half...half)
        let chordNames = (0...half).map { "ch\($0)" }.joined(separator: ", ")
        func tap(_ j: Int) -> String { j < 0 ? "m\(-j)" : "p\(j)" }
        var binned = """
            SELECT i, j, w, v, torder, hx, hy, sq, \(chordNames), g,
            """
        var gauss: [String] = []
        for axis in ["x", "y"] {
            for j in taps {
                let t = "((\(j) - u\(axis)) * a\(axis))"
                gauss.append("CASE WHEN \(t) * \(t) > 120 THEN 0 ELSE EXP(-0.5 * \(t) * \(t)) END AS g\(axis)\(tap(j))")
            }
        }
        binned += "\n  " + gauss.joined(separator: ",\n  ")
        // Powers built one on another need one nesting level each; written
        // out as products instead.
        for axis in ["x", "y"] {
            for k in 1...CellScheme.maximumOrder {
                binned += ",\n  " + Array(repeating: "s\(axis)", count: k).joined(separator: " * ") + " AS q\(axis)\(k)"
            }
        }
        binned += """

            FROM (
              SELECT i, j, w, v, torder, hx, hy, sq, \(chordNames), ux, uy, ax, ay, sx, sy,
                     w * EXP(-(sx * sx + sy * sy) / 2) AS g
              FROM (
                SELECT i, j, w, v, torder, hx, hy, sq, \(chordNames), ux, uy, ax, ay,
                       CASE WHEN ABS(ux * ax) < \(number(1e-30)) THEN 0 ELSE ux * ax END AS sx,
                       CASE WHEN ABS(uy * ay) < \(number(1e-30)) THEN 0 ELSE uy * ay END AS sy
                FROM (
                  SELECT i, j, w, v, torder, hx, hy, \(chordNames), fx - i AS ux, fy - j AS uy, ax, ay,
                         CASE WHEN i - hx >= 0 AND i - hx + stride <= ncols THEN 1 ELSE 0 END AS sq FROM (
                    SELECT w, v, torder, hx, hy, stride, ncols, \(chordNames), fx, fy, ax, ay,
                           CAST(LEAST(GREATEST(FLOOR(fx + 0.5), 0), ncols - 1) AS INTEGER) AS i,
                           CAST(LEAST(GREATEST(FLOOR(fy + 0.5), 0), nrows - 1) AS INTEGER) AS j
                    FROM (SELECT p.w, p.v, g.torder, g.hx, g.hy, g.stride, \((0...CellScheme.splatHalf).map { "g.ch\($0)" }.joined(separator: ", ")), g.ncols, g.nrows, (p.x - g.x0) / g.dx AS fx, (p.y - g.y0) / g.dy AS fy,
                                 g.dx / g.sigma AS ax, g.dy / g.sigma AS ay
                          FROM plane p CROSS JOIN reach g WHERE p.w > 0\(fence)) a
                  \(fence)) b
                \(fence)) c
              \(fence)) d
            \(fence)) e\(fence)
            """
        ctes.append(("binned", binned))
        var sums: [String] = ["COUNT(*) AS n"]
        let side = 2 * half + 1
        var moment: [Int: (Int, Int)] = [:]
        for n in 0...CellScheme.maximumOrder {
            for m in 0...(CellScheme.maximumOrder - n) { moment[CellScheme.momentIndex(m: m, n: n)] = (m, n) }
        }
        for channel in mean ? ["s", "v"] : ["s"] {
            let weightTerm = channel == "s" ? "w" : "w * v", momentTerm = channel == "s" ? "g" : "g * v"
            for k in 0..<CellScheme.sumCount {
                let jx = k % side - half, jy = k / side - half
                let splat =
                    "CASE WHEN hx >= \(abs(jx)) AND hy >= \(abs(jy)) AND (sq = 1 OR ch\(abs(jy)) >= \(abs(jx))) THEN \(weightTerm) * gx\(tap(jx)) * gy\(tap(jy)) ELSE 0 END"
                var taylor = "0"
                if let (m, n) = moment[k] {
                    taylor = ([momentTerm] + (m > 0 ? ["qx\(m)"] : []) + (n > 0 ? ["qy\(n)"] : [])).joined(
                        separator: " * ")
                }
                sums.append("SUM(CASE WHEN torder = 0 THEN \(splat) ELSE \(taylor) END) AS \(channel)\(k)")
            }
        }
        ctes.append(("cells", "SELECT i, j, " + sums.joined(separator: ",\n  ") + "\nFROM binned GROUP BY i, j"))
        return ctes
    }

    private func indent(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
    }

    /// BandwidthEstimator.rule and the resolution of the `auto` rule.
    private func radiusRule(geographic: Bool) -> String {
        let fixed = number(radius)
        let given = resolution.map { "\($0)" } ?? "\(HeatMapConfiguration().gridResolution)"
        let magnitude = "GREATEST(ABS(wx0), ABS(wx1), ABS(wy0), ABS(wy1))"
        let candidate: String
        switch bandwidth.radiusRule {
        case .fixed, .arcgis, .adaptive:
            // arcgis needs a median distance, adaptive a pilot at every
            // point: the tool refuses both for SQL.
            candidate = "CAST(NULL AS \(double))"
        case .auto:
            let longer = "GREATEST(wx1 - wx0, wy1 - wy0)"
            let (lo, hi) = geographic ? (number(50), number(50_000)) : ("\(longer) / 1000", "\(longer) / 2")
            let spacing = "SQRT((wx1 - wx0) * (wy1 - wy0) / NULLIF(CAST(wn AS \(double)), 0))"
            let guardLonger = geographic ? "" : " AND \(longer) > 0"
            candidate =
                "CASE WHEN wn >= 2\(guardLonger) THEN LEAST(GREATEST(COALESCE(\(spacing), \(lo)), \(lo)), \(hi)) END"
        case .scott, .silverman:
            let den = "(sw - sww / GREATEST(sw, \(number(Double.leastNormalMagnitude))))"
            let ok = "(sw > 0 AND \(den) > sw * \(number(1e-12)))"
            func sd(_ s: String, _ ss: String) -> String {
                "CASE WHEN \(ok) THEN SQRT(GREATEST((\(ss) - \(s) * \(s) / NULLIF(sw, 0)) / NULLIF(\(den), 0), 0)) ELSE 0 END"
            }
            let neff = "(sw * sw / NULLIF(sww, 0))"
            var spread =
                "SQRT((\(sd("swx", "swxx")) * \(sd("swx", "swxx")) + \(sd("swy", "swyy")) * \(sd("swy", "swyy"))) / 2)"
            if bandwidth == .silverman {
                // a = min(s, IQR / 1.349) per axis, just s when the IQR is 0.
                func robust(_ s: String, _ low: String, _ high: String) -> String {
                    "CASE WHEN \(high) - \(low) > 0 THEN LEAST(\(s), (\(high) - \(low)) / \(number(1.349))) ELSE \(s) END"
                }
                spread = "(\(robust(sd("swx", "swxx"), "qx1", "qx3")) + \(robust(sd("swy", "swyy"), "qy1", "qy3"))) / 2"
            }
            candidate = "CASE WHEN wn >= 2 AND \(neff) > 1 THEN 3 * POWER(\(neff), \(number(-1.0 / 6))) * \(spread) END"
        }
        let fromData = bandwidth == .auto && resolution == nil
        let res =
            fromData
            ? "CASE WHEN wn >= 2 THEN LEAST(GREATEST(CAST(FLOOR(GREATEST(wx1 - wx0, wy1 - wy0) / (rradius / 3) + 0.5) AS INTEGER), 20), 300) ELSE \(given) END"
            : given
        return """
            SELECT t.*, \(res) AS res FROM (
              SELECT b.*, CASE WHEN cand > 0 AND cand > \(magnitude) * \(number(1e-9)) THEN cand ELSE \(fixed) END AS rradius,
                     CASE WHEN cand > 0 AND cand > \(magnitude) * \(number(1e-9)) THEN \(kernelRadius("cand")) ELSE \(fixed) END AS kradius
              FROM (SELECT box.*, \(candidate) AS cand FROM \(bandwidth == .silverman ? "box CROSS JOIN quartiles" : "box")) b
            ) t
            """
    }

    /// A σ rule's radius (3σ) as the kernel's radius of the same spread
    /// per axis (DensityPlanner.kernelRadius), in the tool's operations.
    private func kernelRadius(_ ruleRadius: String) -> String {
        kernel.isFinite ? "(\(ruleRadius) / \(number(3)) * \(number(kernel.radiusPerSigma)))" : ruleRadius
    }

    /// StreamedDensity.radiusFloor, for the `auto` rule, as the kernel's radius.
    private func floorRule() -> String {
        guard bandwidth == .auto else {
            return "SELECT rule.*, kradius AS radius, 0 AS raised FROM rule"
        }
        let longer = "GREATEST(bx1 - bx0, by1 - by0)"
        let cells = "(CAST(res AS \(double)) - 3 * \(number(padding)))"
        let floor = "CASE WHEN \(longer) > 0 AND \(cells) > 0 THEN \(number(1.5)) * \(longer) / \(cells) ELSE 0 END"
        return """
            SELECT t.*, CASE WHEN fl > kradius THEN fl ELSE kradius END AS radius,
                   CASE WHEN fl > kradius THEN 1 ELSE 0 END AS raised
            FROM (SELECT rule.*, \(kernelRadius("(\(floor))")) AS fl FROM rule) t
            """
    }
}
