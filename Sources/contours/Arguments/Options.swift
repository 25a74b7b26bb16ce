import HeatMap

/// Every option of the tool, each declared once: name, value type,
/// default (the library's own where it has one), help and reading.
/// Commands pick the ones they accept (``Commands``); `--help` is printed
/// from these declarations.
enum Options {
    // Library defaults the declarations take.
    private static let map = HeatMapConfiguration()
    private static let picture = HeatMapRenderOptions()
    private static let geoJSON = GeoJSONOptions()
    private static let bins = BinningConfiguration(size: 1)

    // Input
    static let lat = Option<String?>.column(
        "--lat",
        defaultText: "the first of \(PointColumns.latitudeNames.joined(separator: ", ")) (any case)",
        help: "Column (CSV) holding the latitude, or y with --planar.",
        example: "--lat Latitude")
    static let lon = Option<String?>.column(
        "--lon",
        defaultText: "the first of \(PointColumns.longitudeNames.joined(separator: ", "))",
        help: "Column holding the longitude, or x with --planar.",
        example: "--lon long")
    static let weight = Option<String?>.column(
        "--weight", defaultText: "1 per point",
        help: "Column (or GeoJSON property) weighting each point (a number >= 0).",
        example: "--weight wind")
    static let value = Option<String?>.column(
        "--value",
        help: "Column (or property) of a measured value; maps its kernel-weighted local mean instead of the density.",
        example: "--value Sale_Price")
    static let planar = Flag(
        "--planar",
        help: "Coordinates are planar x/y, not degrees (same as --projection planar); radius in the same units.",
        example: "--planar")
    /// `--input-format` of the commands that read points only (bin, hit).
    static let inputFormat = Option<InputChoice?>.choice(
        "--input-format", value: "csv|geojson",
        [("csv", .csv), ("geojson", .geojson), ("json", .geojson)], default: nil,
        defaultText: "GeoJSON when the text starts with { or [, else by the file's extension, else CSV",
        help: "Read INPUT as this format.",
        example: "--input-format geojson")
    /// `--input-format` of the commands that also read cells tables (grid, export, info).
    static let inputFormatOrCells = Option<InputChoice?>.choice(
        "--input-format", value: "csv|geojson|cells",
        [("csv", .csv), ("geojson", .geojson), ("json", .geojson), ("cells", .cells)], default: nil,
        defaultText:
            "GeoJSON when the text starts with { or [, a cells table when the CSV header has a contours_cells column, else by the file's extension, else CSV",
        help: "Read INPUT as this format (cells: a table made by 'contours sql').",
        example: "--input-format geojson")
    static let skipInvalid = Flag(
        "--skip-invalid",
        help:
            "Skip bad rows (non-numbers, NaN, out-of-range coordinates, negative weights) and report how many and why, instead of stopping at the first.",
        example: "--skip-invalid")

    // Time frames
    static let time = Option<[String]?>(
        "--time", value: "COLUMN|YEAR,MONTH[,DAY[,HOUR[,MINUTE]]]", default: nil,
        defaultText: "no time",
        help:
            "Column holding each point's time (ISO 8601 date or date-time, UTC unless it has Z or an offset; or Unix time with --time-format), or a comma list of 2 to 5 columns holding year, month, day, hour, minute. Needed by --frames.",
        example: "--time year,month,day,hour"
    ) { text, _ in
        let names = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard !names.contains(where: \.isEmpty) else {
            throw ValueRefusal.because("expected a column name, or a comma list of columns")
        }
        guard names.count <= 5 else { throw ValueRefusal.because("at most 5 columns: year, month, day, hour, minute") }
        return names
    }
    static let timeFormat = Option.choice(
        "--time-format", value: "iso|epoch|epoch-ms",
        TimeColumns.Format.allCases.map { ($0.rawValue, $0) }, default: .iso8601,
        help: "How a single --time column is written: ISO 8601 text, Unix seconds, or Unix milliseconds.",
        example: "--time-format epoch-ms")
    static let frames = Option<TimeStep?>(
        "--frames", value: "STEP", default: nil, defaultText: "no frames",
        help:
            "Cut the points into frames by their --time, one frame every STEP (30s, 15min, 6h, 1d, 7d, 2w, 1mo, 1y; months and years by the UTC calendar). Every frame has the same grid, radius and thresholds.",
        example: "--frames 1mo"
    ) { text, _ in try OptionValues.timeStep(text) }
    static let window = Option<TimeStep?>(
        "--window", value: "WIDTH", default: nil, defaultText: "the step",
        help:
            "Each frame holds the points from its start to start + WIDTH (excluded); wider than --frames gives a sliding window.",
        example: "--frames 1d --window 7d"
    ) { text, _ in try OptionValues.timeStep(text) }
    static let cumulative = Flag(
        "--cumulative",
        help: "Each frame holds every point from the first frame's start to its own end.",
        example: "--frames 1y --cumulative")
    static let from = Option<Double?>(
        "--from", value: "DATE", default: nil,
        defaultText: "the first point's time floored to the step's unit (hour, day, month, year; UTC)",
        help: "Start of the first frame (ISO 8601).",
        example: "--from 2020-01-01"
    ) { text, _ in try OptionValues.instant(text) }
    static let to = Option<Double?>(
        "--to", value: "DATE", default: nil, defaultText: "until the last point's time",
        help: "Frames start before DATE (ISO 8601).",
        example: "--to 2021-01-01"
    ) { text, _ in try OptionValues.instant(text) }
    static let frame = Option<Int?>.integer(
        "--frame", value: "K", in: 0...(TimeFrameOptions.maximumFrames - 1),
        defaultText: "every frame (small multiples)",
        help: "SVG of frames: draw frame K (0-based) alone.",
        example: "--frame 3")

    static let hitFrame = Option<Int?>.integer(
        "--frame", value: "K", in: 0...(TimeFrameOptions.maximumFrames - 1),
        defaultText: "the file's one frame",
        help: "A contour file of frames (exported with --frames): answer from frame K (0-based).",
        example: "--frame 3")

    // Engines
    static let dialect = Option.choice(
        "--dialect", CellQuery.Dialect.allCases.map { ($0.rawValue, $0) },
        default: .duckdb,
        help: "SQL dialect of the statement.",
        example: "--dialect postgres")
    static let table = Option<String?>.text(
        "--table", value: "NAME",
        help:
            "Table of points the statement reads: a name (schema.table), or a table expression such as read_parquet('points.parquet') (DuckDB). Required.",
        example: "--table \"read_csv('points.csv')\"")

    // Density
    static let radius = Option<RadiusChoice>(
        "--radius", value: "R|auto|scott|silverman|arcgis",
        default: .rule(.auto),
        defaultText: "auto; SVG and HTML pictures: a fiftieth of the data's longer side, at least auto's spacing",
        help:
            "Kernel radius (sigma = R/3) in metres (or planar units; 25km and 800m are read too), or a rule: auto (mean point spacing, the Apple package's rule, raised when needed so that sigma spans half a grid cell; also picks the resolution), scott, silverman, arcgis (ArcGIS Pro's default search radius). A rule's sigma becomes the radius of the same spread for a finite --kernel (R = 2.83 sigma for quartic); arcgis gives R itself.",
        example: "--radius 25km"
    ) { text, _ in try RadiusChoice.read(text) }
    static let kernel = Option<DensityKernel>(
        "--kernel",
        value: "gaussian|quartic|epanechnikov|triweight|triangular[:DECAY]|uniform", default: map.kernel,
        defaultText: map.kernel.name,
        help:
            "Kernel shape. gaussian: sigma = R/3; the others are QGIS's and ArcGIS's (quartic is their default): R is the support, a point adds nothing beyond it. triangular:DECAY keeps DECAY (0...1) of the peak at R.",
        example: "--kernel quartic"
    ) { text, _ in
        do { return try DensityKernel(name: text) } catch let HeatMapError.invalidConfiguration(why) {
            throw ValueRefusal.because(why)
        }
    }
    static let kernelValues = Option.choice(
        "--kernel-values", KernelValues.allCases.map { ($0.rawValue, $0) },
        default: map.kernelValues,
        help:
            "density: weight per km² (per square unit with --planar), the kernel integrating to 1 (QGIS's Scaled); raw: weight × kernel shape, peak 1 per unit of weight, no unit (QGIS's Raw).",
        example: "--kernel-values raw")
    static let adaptive = Option<Double?>(
        "--adaptive", value: "[ALPHA]", default: nil,
        defaultText: "off (one radius for every point)",
        help:
            "Adaptive bandwidth (Abramson): each point's radius is R × (pilot / g)^-ALPHA, the pilot the fixed-radius density at the point and g its geometric mean, so kernels narrow where points are dense and widen where they are sparse. ALPHA in (0, 1], 0.5 when not given. The points are held in memory.",
        example: "--adaptive 0.5"
    ) { text, _ in
        try finiteNumber(text, minimum: 0, open: true, maximum: 1)
    }.valueOptional("0.5")
    static let adaptiveTrim = Option<Double>.number(
        "--adaptive-trim", value: "T", minimum: 1, default: 5,
        help: "With --adaptive, the largest factor a point's radius may grow by (>= 1).",
        example: "--adaptive-trim 3")
    static let radiusColumn = Option<String?>.column(
        "--radius-column",
        help:
            "Column (or property) holding each point's own kernel radius, in metres (planar units with --planar), as QGIS's radius from field; the grid's padding follows the largest. With --value, the mean is weighted by each point's own kernel. Not with --adaptive.",
        example: "--radius-column reach_m")
    static let resolution = Option<Int>.integer(
        "--resolution", value: "N", in: 2...10_000,
        default: map.gridResolution, defaultText: "from the data with --radius auto, else \(map.gridResolution)",
        help: "Grid cells along the longer side of the padded box (2...10000).",
        example: "--resolution 400")
    static let padding = Option<Double>.number(
        "--padding", value: "F", minimum: 0, default: map.paddingFactor,
        help: "Padding of the data box on every side, in radii (>= 0).",
        example: "--padding 2")
    static let projection = Option.choice(
        "--projection", MapProjection.allCases.map { ($0.rawValue, $0) },
        default: map.projection, defaultNote: " (Lambert azimuthal, centred on the data)",
        help: "Plane in which distances are measured.",
        example: "--projection web-mercator")

    // Levels
    static let levels = Option<Int>.integer(
        "--levels", value: "N", in: 1...1000, default: map.contourLevels,
        help: "Number of contour levels (1...1000).",
        example: "--levels 6")
    static let spacing = Option<LevelSpacing>(
        "--spacing",
        value: "auto|linear|log|quantile|nice|custom:V1,V2,...|probability:P1,P2,...",
        default: map.levelSpacing, defaultText: OptionValues.word(map.levelSpacing),
        help:
            "How thresholds are placed: auto (quantile for skewed grids, else linear), linear, log, quantile, nice (round numbers), custom values in the grid's units, or probability shares of the mass (highest-density regions).",
        example: "--spacing probability:0.5,0.8,0.95"
    ) { text, _ in try OptionValues.spacing(text) }

    // Contours
    static let smooth = Option<PolygonSmoother>(
        "--smooth", value: "none|chaikin[:N]",
        default: map.smoother, defaultText: OptionValues.word(map.smoother),
        help:
            "Ring smoothing: none, or N passes of Chaikin corner cutting (0...8); passes beyond 2 split only the vertices 1/64 of a grid cell or more from the smooth curve, so they add vertices only at tight bends.",
        example: "--smooth none"
    ) { text, _ in try OptionValues.smoother(text) }
    static let mode = Option.choice(
        "--mode", ContourMode.allCases.map { ($0.rawValue, $0) },
        default: picture.contourMode,
        help:
            "bands: disjoint bands between thresholds; levels: nested regions above each threshold (as d3-contour); isolines: the lines.",
        example: "--mode isolines")
    static let feature = Option.choice(
        "--feature", value: "level|polygon",
        [("level", GeoJSONFeatureGrouping.level), ("band", .level), ("polygon", .polygon)],
        default: geoJSON.grouping,
        help:
            "level: one Feature per threshold (a band, a level or an isoline, as --mode says), a MultiPolygon or MultiLineString when it has several parts; polygon: one Feature per polygon. 'band' is read as level.",
        example: "--feature polygon")
    static let simplify = Option<Double??>(
        "--simplify", value: "TOLERANCE|auto", default: nil,
        defaultText: "no simplification",
        help:
            "Drop vertices within TOLERANCE of the simplified line, in metres (or planar units; 2km and 500m are read too), keeping shared band boundaries shared and every polygon valid; auto: half a pixel for pictures, a quarter of a grid cell for GeoJSON. Not with --frames.",
        example: "--simplify 200m"
    ) { text, _ in try OptionValues.simplification(text) }
    static let precision = Option<Int>.integer(
        "--precision", value: "D", in: 0...15, default: geoJSON.precision,
        defaultNote:
            " (about 0.1 m); for planar export, enough to keep rounding under a millionth of a grid cell (at least 6)",
        help: "Decimals of output coordinates (0...15).",
        example: "--precision 5")

    // Output
    static let output = Option<String?>(
        "--output", short: "-o", value: "FILE", default: nil,
        defaultText: "standard output",
        help:
            "Write to FILE (whole or not at all: via a temporary file that is renamed). A symbolic link is written through (the file it points to is replaced; the link stays). FILE may not be an input.",
        example: "-o storms.geojson"
    ) { text, _ in
        guard !text.isEmpty else { throw ValueRefusal.because("expected a file name") }
        return text
    }
    static let exportFormat = Option.choice(
        "--format", value: "geojson|svg|html",
        [("geojson", ExportCommand.Format.geojson), ("json", .geojson), ("svg", .svg), ("html", .html)],
        default: .geojson,
        defaultText: "geojson; or the one the -o file's extension names (.svg, .html, .geojson, .json)",
        help: "Output format.",
        example: "--format svg")
    static let gridFormat = Option.choice(
        "--format", value: "json|asc|tiff|geotiff",
        [("json", GridCommand.Format.json), ("asc", .asc), ("tiff", .tiff), ("tif", .tiff), ("geotiff", .tiff)],
        default: .json, defaultText: "json; or the one the -o file's extension names (.tif, .tiff, .asc, .json)",
        help:
            "json: columns, rows, x0, y0, dx, dy, projection, crs, units and row-major values (row 0 the lowest y); asc: ESRI ASCII grid (with a .prj beside it when written to a file); tiff or geotiff: Cloud-Optimized GeoTIFF (Float32, DEFLATE, CRS, overviews).",
        example: "--format tiff -o density.tif")
    static let float64 = Flag(
        "--float64",
        help: "Write GeoTIFF samples as 64-bit floats (every digit as computed) instead of 32-bit.",
        example: "--format tiff --float64")
    static let interval = Option<Double?>.number(
        "--interval", value: "I", minimum: 0, open: true,
        help:
            "Levels every I units, at offset + k·I (gdal_contour -i); for raster input and points alike. Replaces --levels/--spacing.",
        example: "--interval 100 --offset 50")
    static let offset = Option<Double>.number(
        "--offset", value: "O", minimum: -Double.greatestFiniteMagnitude,
        default: 0,
        help: "Where --interval levels start from (gdal_contour -off).",
        example: "--offset 50")
    static let expBase = Option<Double?>.number(
        "--exp-base", value: "B", minimum: 1, open: true,
        help: "Levels at 1, B, B², … (gdal_contour -e B). Replaces --levels/--spacing.",
        example: "--exp-base 10")
    static let attributes = Option.choice(
        "--attributes", [("ours", false), ("gdal", true)],
        default: geoJSON.gdalAttributes != nil,
        help: "gdal adds gdal_contour's fields: amin/amax on bands and levels, elev on isolines.",
        example: "--attributes gdal")
    static let keepCRS = Flag(
        "--keep-crs",
        help:
            "Raster input in a CRS this tool cannot map to longitude/latitude: write contours in the raster's own coordinates and name its CRS in the GeoJSON ('crs' member) instead of refusing.",
        example: "--keep-crs")
    static let crs = Option<RasterCRS?>(
        "--crs", value: "EPSG:N", default: nil, defaultText: "none",
        help: "What planar x/y are (planar input only): rasters and GeoJSON state this CRS.",
        example: "--planar --crs EPSG:32633"
    ) { text, _ in try OptionValues.crs(text) }
    static let minZoom = Option<Int?>.integer(
        "--min-zoom", value: "Z", in: 0...HeatMapTiles.deepestZoom,
        defaultText: "the zoom where the data fits one tile",
        help: "Tiles: the lowest zoom written.",
        example: "--min-zoom 3")
    static let maxZoom = Option<Int?>.integer(
        "--max-zoom", value: "Z", in: 0...HeatMapTiles.deepestZoom,
        defaultText: "the zoom past which the kernel shows no more detail (cells of half its σ)",
        help: "Tiles: the highest zoom written; each zoom has four times the tiles of the one before.",
        example: "--max-zoom 10")
    static let tileBins = Option<HeatMapTiles.BinShape?>.choice(
        "--bins", value: "hexagon|h3", [("hexagon", .hexagon), ("h3", .h3)], default: nil,
        defaultText: "none",
        help:
            "Tiles: a 'bins' layer too, the points binned in hexagons or H3 cells sized per zoom (an edge of about 12 screen pixels), with count, weight and weight per km².",
        example: "--bins h3")
    static let infoFormat = Option.choice(
        "--format", [("text", false), ("json", true)], default: false,
        help: "Report as text for people or one JSON object for programs.",
        example: "--format json")
    static let binFormat = Option.choice(
        "--format", value: "geojson|csv|svg|html",
        [("geojson", BinCommand.Format.geojson), ("json", .geojson), ("csv", .csv), ("svg", .svg), ("html", .html)],
        default: .geojson,
        defaultText: "geojson; or the one the -o file's extension names (.csv, .svg, .html, .geojson, .json)",
        help: "Output format; csv columns are q,r,x,y,count,value (hexagons) or i,j,x,y,count,value (squares).",
        example: "--format csv")
    static let progress = Flag(
        "--progress",
        help: "Show progress on standard error even when it is not a terminal.",
        example: "--progress")

    // Pictures (svg, html)
    static let gradient = Option<HeatMapGradient>(
        "--gradient",
        value: "thermal|warm|cool|monochrome:#RRGGBB|#c1,#c2,...", default: map.gradient,
        defaultText: [("thermal", HeatMapGradient.thermal), ("warm", .warm), ("cool", .cool)]
            .first { $0.1 == map.gradient }?.0,
        help: "Colours, low to high, for pictures and the GeoJSON fill/stroke properties.",
        example: "--gradient monochrome:#d7301f"
    ) { text, _ in try OptionValues.gradient(text) }
    static let opacity = Option<Double>.number(
        "--opacity", value: "F", minimum: 0, maximum: 1,
        default: map.fillOpacity,
        help: "Fill opacity of bands or bins, 0...1.",
        example: "--opacity 0.7")
    static let render = Option<HeatMapRenderMode>(
        "--render", value: "filled|isolines|both",
        default: map.renderMode,
        defaultText: [("filled", HeatMapRenderMode.filled), ("isolines", .isolines()), ("both", .filledWithIsolines())]
            .first { $0.1 == map.renderMode }?.0,
        help: "Pictures: filled bands, their outlines only, or both.",
        example: "--render both"
    ) { text, _ in try OptionValues.renderMode(text) }
    static let legend = Option.choice(
        "--legend",
        [("vertical", HeatMapLegend.Axis?.some(.vertical)), ("horizontal", .some(.horizontal)), ("none", nil)],
        default: picture.legend,
        help: "Pictures: the colour legend, labelled at the thresholds with units.",
        example: "--legend horizontal")
    static let basemap = Option<BasemapLayer>(
        "--basemap", value: "none|world|FILE.geojson", repeatable: true,
        default: .world, defaultText: "world",
        help:
            "Pictures: the map under the data, in the data's projection: world (Natural Earth 1:50m land, borders and coastlines, built in), none, or a GeoJSON file of lines and polygons; repeat to stack several.",
        example: "--basemap world --basemap nz_coastline.geojson"
    ) { text, _ in BasemapLayer.read(text) }
    private static let switches: [(String, Bool?)] = [("auto", nil), ("on", true), ("off", false)]
    static let graticule = Option.choice(
        "--graticule", switches, default: picture.graticule,
        defaultNote: " (when the view spans a degree or more)",
        help: "Pictures: labelled lines of latitude and longitude.",
        example: "--graticule on")
    static let scaleBar = Option.choice(
        "--scale-bar", switches, default: picture.scaleBar,
        defaultNote: " (on geographic pictures)",
        help: "Pictures: a scale bar in m or km.",
        example: "--scale-bar off")
    static let units = Option<String?>.text(
        "--units",
        defaultText:
            "from the columns (\"per km²\", \"wind × points per km²\" with --weight wind, \"mean Sale_Price\" with --value Sale_Price)",
        help: "The units of the values, for legends and tooltips.",
        example: "--units 'kn × fixes per km²'")
    static let width = Option<Int>.integer(
        "--width", value: "PX", in: 50...20_000, default: Int(picture.width),
        help: "Pictures: width in pixels (50...20000).",
        example: "--width 1200")
    static let height = Option<Int>.integer(
        "--height", value: "PX", in: 50...20_000, default: Int(picture.height),
        help: "Pictures: height in pixels (50...20000).",
        example: "--height 900")
    static let basemapTiles = Option<String?>.text(
        "--basemap-tiles", value: "URL",
        help:
            "HTML pages: raster map tiles under the data (an XYZ URL template with {z}, {x}, {y}; the reader's browser fetches them); the page is drawn in Web Mercator. Credit the source with --attribution.",
        example: "--basemap-tiles 'https://tile.openstreetmap.org/{z}/{x}/{y}.png'")
    static let attribution = Option<String?>.text(
        "--attribution",
        help: "Pictures: a credit line (the data's or the map tiles' source), shown on the map under --basemap-tiles.",
        example: "--attribution '© OpenStreetMap contributors'")
    static let title = Option<String?>.text(
        "--title",
        help: "Pictures: a title at the top (shown as text, never as markup).",
        example: "--title \"Atlantic storms 1975-2022\"")
    static let scale = Option<HeatMapScaleType>(
        "--scale", value: "linear|log|symlog[:SLOPE]",
        default: geoJSON.colorScale, defaultText: "linear",
        help: "How bin values map to colours (symlog as Swift Charts' symmetricLog).",
        example: "--scale log"
    ) { text, _ in try OptionValues.scale(text) }

    // Hit
    static let at = Option<HitQuery?>(
        "--at", value: "LAT,LON", repeatable: true, default: nil, defaultText: nil,
        help:
            "A query point (repeatable; with --planar: Y,X). Without --at, query points are read from INPUT or standard input.",
        example: "--at -20.5,178.2"
    ) { text, context in try OptionValues.at(text, context) }

    // Bin
    static let shape = Option.choice(
        "--shape", value: "hex|square|h3",
        [("hex", BinShape.hexagon), ("hexagon", .hexagon), ("square", .square), ("h3", .h3)],
        default: bins.shape,
        help: "Cell shape: our hexagons, squares, or Uber's H3 cells (ids as the h3 library's).",
        example: "--shape square")
    static let size = Option<Double?>(
        "--size", value: "R", default: nil,
        defaultText: "a fortieth of the data's longer side",
        help:
            "Hexagon centre-to-corner radius, or square side: kilometres for geographic input (800m reads too), data units with --planar.",
        example: "--size 50"
    ) { text, context in try OptionValues.binSize(text, context) }
    static let orientation = Option.choice(
        "--orientation", HexOrientation.allCases.map { ($0.rawValue, $0) },
        default: bins.orientation,
        help: "Hexagon orientation.",
        example: "--orientation flat")
    static let aggregate = Option.choice(
        "--aggregate", BinAggregate.allCases.map { ($0.rawValue, $0) },
        default: .count, defaultNote: " (sum for --h3 rows, which are counts already)",
        help: "Per-cell aggregate of the --value column (or of the weights).",
        example: "--aggregate mean")
    static let h3Resolution = Option<Int?>.integer(
        "--h3-resolution", value: "R", in: 0...15,
        defaultText: "from the data (the hexagon size bin would pick), or the coarsest --h3 input cell",
        help: "H3 resolution 0 (~1,100 km edges) to 15 (~0.5 m) for --shape h3.",
        example: "--h3-resolution 7")
    static let h3Column = Option<String?>.text(
        "--h3", value: "COLUMN",
        help:
            "Read pre-aggregated H3 cells: COLUMN holds the cell id (hex, or the 64-bit integer); --weight names the count column (default: count, weight or n if present, else 1 per row).",
        example: "--h3 h3_cell --weight n")
    static let includeEmpty = Flag(
        "--include-empty",
        help:
            "Also output every empty cell covering the data's box (a honeycomb with zeros). Refused when that makes more than --max-cells cells.",
        example: "--include-empty")
    /// The tool's own limit, lower than the library's
    /// (``BinningConfiguration/maximumCells``).
    static let maxCells = Option<Int>.integer(
        "--max-cells", value: "N", in: 1...Int(Int32.max), default: 1_000_000,
        help: "With --include-empty, the most cells to output before refusing.",
        example: "--max-cells 5000000")

    // General
    static let help = Flag(
        "--help", short: "-h",
        help: "Show this help.",
        example: "--help")
}

/// `--input-format`.
enum InputChoice: Sendable, Equatable {
    case csv, geojson
    /// A cells table of `contours sql`.
    case cells
}
