/// One command-line option: its name, what value it takes, what it does,
/// and an example, as `--help` prints them.
struct OptionSpec: Sendable {
    /// The long name with dashes, e.g. "--radius".
    let name: String
    /// A one-letter alias with its dash, e.g. "-o".
    let short: String?
    /// The value's placeholder ("R|auto|scott|silverman"); nil for a flag.
    let value: String?
    /// What the option does (one or two sentences).
    let help: String
    /// A worked example of its use.
    let example: String
    /// Whether it may be given more than once.
    let repeatable: Bool

    init(_ name: String, short: String? = nil, value: String? = nil, repeatable: Bool = false,
         help: String, example: String) {
        self.name = name
        self.short = short
        self.value = value
        self.help = help
        self.example = example
        self.repeatable = repeatable
    }

    var takesValue: Bool { value != nil }
}

/// Every option of the tool. Commands pick the ones they accept.
enum Options {
    // Input
    static let lat = OptionSpec("--lat", value: "NAME",
        help: "Column (CSV) holding the latitude, or y with --planar. Default: the first of lat, latitude, y (any case).",
        example: "--lat Latitude")
    static let lon = OptionSpec("--lon", value: "NAME",
        help: "Column holding the longitude, or x with --planar. Default: the first of lon, lng, long, longitude, x.",
        example: "--lon long")
    static let weight = OptionSpec("--weight", value: "NAME",
        help: "Column (or GeoJSON property) weighting each point (a number >= 0). Default: 1 per point.",
        example: "--weight wind")
    static let value = OptionSpec("--value", value: "NAME",
        help: "Column (or property) of a measured value; maps its kernel-weighted local mean instead of the density.",
        example: "--value Sale_Price")
    static let planar = OptionSpec("--planar",
        help: "Coordinates are planar x/y, not degrees (same as --projection planar); radius in the same units.",
        example: "--planar")
    static let inputFormat = OptionSpec("--input-format", value: "csv|geojson|cells",
        help: "Read INPUT as this format (cells: a table made by 'contours sql'; grid, export and info only). Default: GeoJSON when the text starts with { or [, a cells table when the CSV header has a contours_cells column, else by the file's extension, else CSV.",
        example: "--input-format geojson")
    static let skipInvalid = OptionSpec("--skip-invalid",
        help: "Skip bad rows (non-numbers, NaN, out-of-range coordinates, negative weights) and report how many and why, instead of stopping at the first.",
        example: "--skip-invalid")

    // Engines
    static let dialect = OptionSpec("--dialect", value: "duckdb|spark|postgres",
        help: "SQL dialect of the statement. Default: duckdb.",
        example: "--dialect postgres")
    static let table = OptionSpec("--table", value: "NAME",
        help: "Table of points the statement reads: a name (schema.table), or a table expression such as read_parquet('points.parquet') (DuckDB). Required.",
        example: "--table \"read_csv('points.csv')\"")

    // Density
    static let radius = OptionSpec("--radius", value: "R|auto|scott|silverman",
        help: "Kernel radius (sigma = R/3) in metres (or planar units; 25km and 800m are read too), or a rule: auto (mean point spacing, the Apple package's rule, raised when needed so that sigma spans half a grid cell; also picks the resolution), scott, silverman. Default: auto; SVG and HTML pictures: a fiftieth of the data's longer side, at least auto's spacing.",
        example: "--radius 25km")
    static let resolution = OptionSpec("--resolution", value: "N",
        help: "Grid cells along the longer side of the padded box (2...10000). Default: from the data with --radius auto, else 100.",
        example: "--resolution 400")
    static let padding = OptionSpec("--padding", value: "F",
        help: "Padding of the data box on every side, in radii (>= 0). Default: 1.5.",
        example: "--padding 2")
    static let projection = OptionSpec("--projection", value: "equal-area|equirectangular|web-mercator|planar",
        help: "Plane in which distances are measured. Default: equal-area (Lambert azimuthal, centred on the data).",
        example: "--projection web-mercator")

    // Levels
    static let levels = OptionSpec("--levels", value: "N",
        help: "Number of contour levels (1...1000). Default: 10.",
        example: "--levels 6")
    static let spacing = OptionSpec("--spacing",
        value: "auto|linear|log|quantile|nice|custom:V1,V2,...|probability:P1,P2,...",
        help: "How thresholds are placed: auto (quantile for skewed grids, else linear), linear, log, quantile, nice (round numbers), custom values in the grid's units, or probability shares of the mass (highest-density regions). Default: auto.",
        example: "--spacing probability:0.5,0.8,0.95")

    // Contours
    static let smooth = OptionSpec("--smooth", value: "none|chaikin[:N]",
        help: "Ring smoothing: none, or N passes of Chaikin corner cutting (0...8). Default: chaikin:2.",
        example: "--smooth none")
    static let mode = OptionSpec("--mode", value: "bands|levels|isolines",
        help: "bands: disjoint bands between thresholds; levels: nested regions above each threshold (as d3-contour); isolines: the lines. Default: bands.",
        example: "--mode isolines")
    static let feature = OptionSpec("--feature", value: "level|polygon",
        help: "One Feature per band or level (a Polygon or MultiPolygon), or one per polygon. Default: level.",
        example: "--feature polygon")
    static let simplify = OptionSpec("--simplify", value: "TOLERANCE|auto",
        help: "Drop vertices within TOLERANCE of the simplified line, in metres (or planar units; 2km and 500m are read too), keeping shared band boundaries shared and every polygon valid; auto: half a pixel for pictures, a quarter of a grid cell for GeoJSON. Default: no simplification.",
        example: "--simplify 200m")
    static let precision = OptionSpec("--precision", value: "D",
        help: "Decimals of output coordinates (0...15). Default: 6 (about 0.1 m); for planar export, enough to keep rounding under a millionth of a grid cell (at least 6).",
        example: "--precision 5")

    // Output
    static let output = OptionSpec("--output", short: "-o", value: "FILE",
        help: "Write to FILE (whole or not at all: via a temporary file that is renamed). A symbolic link is written through (the file it points to is replaced; the link stays). FILE may not be an input. Default: standard output.",
        example: "-o storms.geojson")
    static let exportFormat = OptionSpec("--format", value: "geojson|svg|html",
        help: "Output format. Default: geojson.",
        example: "--format svg")
    static let gridFormat = OptionSpec("--format", value: "json|asc|tiff|geotiff",
        help: "json: columns, rows, x0, y0, dx, dy, projection, crs, units and row-major values (row 0 the lowest y); asc: ESRI ASCII grid (with a .prj beside it when written to a file); tiff or geotiff: Cloud-Optimized GeoTIFF (Float32, DEFLATE, CRS, overviews). Default: json.",
        example: "--format tiff -o density.tif")
    static let float64 = OptionSpec("--float64",
        help: "Write GeoTIFF samples as 64-bit floats (every digit as computed) instead of 32-bit.",
        example: "--format tiff --float64")
    static let interval = OptionSpec("--interval", value: "I",
        help: "Levels every I units, at offset + k·I (gdal_contour -i); for raster input and points alike. Replaces --levels/--spacing.",
        example: "--interval 100 --offset 50")
    static let offset = OptionSpec("--offset", value: "O",
        help: "Where --interval levels start from (gdal_contour -off). Default: 0.",
        example: "--offset 50")
    static let expBase = OptionSpec("--exp-base", value: "B",
        help: "Levels at 1, B, B², … (gdal_contour -e B). Replaces --levels/--spacing.",
        example: "--exp-base 10")
    static let attributes = OptionSpec("--attributes", value: "ours|gdal",
        help: "gdal adds gdal_contour's fields: amin/amax on bands and levels, elev on isolines. Default: ours.",
        example: "--attributes gdal")
    static let keepCRS = OptionSpec("--keep-crs",
        help: "Raster input in a CRS this tool cannot map to longitude/latitude: write contours in the raster's own coordinates and name its CRS in the GeoJSON ('crs' member) instead of refusing.",
        example: "--keep-crs")
    static let crs = OptionSpec("--crs", value: "EPSG:N",
        help: "What planar x/y are (planar input only): rasters and GeoJSON state this CRS. Default: none.",
        example: "--planar --crs EPSG:32633")
    static let infoFormat = OptionSpec("--format", value: "text|json",
        help: "Report as text for people or one JSON object for programs. Default: text.",
        example: "--format json")
    static let binFormat = OptionSpec("--format", value: "geojson|csv|svg|html",
        help: "Output format; csv columns are q,r,x,y,count,value (hexagons) or i,j,x,y,count,value (squares). Default: geojson.",
        example: "--format csv")
    static let progress = OptionSpec("--progress",
        help: "Show progress on standard error even when it is not a terminal.",
        example: "--progress")

    // Pictures (svg, html)
    static let gradient = OptionSpec("--gradient", value: "thermal|warm|cool|monochrome:#RRGGBB|#c1,#c2,...",
        help: "Colours, low to high, for pictures and the GeoJSON fill/stroke properties. Default: thermal.",
        example: "--gradient monochrome:#d7301f")
    static let opacity = OptionSpec("--opacity", value: "F",
        help: "Fill opacity of bands or bins, 0...1. Default: 1.",
        example: "--opacity 0.7")
    static let render = OptionSpec("--render", value: "filled|isolines|both",
        help: "Pictures: filled bands, their outlines only, or both. Default: filled.",
        example: "--render both")
    static let legend = OptionSpec("--legend", value: "vertical|horizontal|none",
        help: "Pictures: the colour legend, labelled at the thresholds with units. Default: vertical.",
        example: "--legend horizontal")
    static let basemap = OptionSpec("--basemap", value: "none|world|FILE.geojson", repeatable: true,
        help: "Pictures: the map under the data, in the data's projection: world (Natural Earth 1:50m land, borders and coastlines, built in), none, or a GeoJSON file of lines and polygons; repeat to stack several. Default: world.",
        example: "--basemap world --basemap nz_coastline.geojson")
    static let graticule = OptionSpec("--graticule", value: "auto|on|off",
        help: "Pictures: labelled lines of latitude and longitude. Default: auto (when the view spans a degree or more).",
        example: "--graticule on")
    static let scaleBar = OptionSpec("--scale-bar", value: "auto|on|off",
        help: "Pictures: a scale bar in m or km. Default: auto (on geographic pictures).",
        example: "--scale-bar off")
    static let units = OptionSpec("--units", value: "TEXT",
        help: "The units of the values, for legends and tooltips. Default: from the columns (\"per km²\", \"wind × points per km²\" with --weight wind, \"mean Sale_Price\" with --value Sale_Price).",
        example: "--units 'kn × fixes per km²'")
    static let width = OptionSpec("--width", value: "PX",
        help: "Pictures: width in pixels (50...20000). Default: 800.",
        example: "--width 1200")
    static let height = OptionSpec("--height", value: "PX",
        help: "Pictures: height in pixels (50...20000). Default: 600.",
        example: "--height 900")
    static let title = OptionSpec("--title", value: "TEXT",
        help: "Pictures: a title at the top (shown as text, never as markup).",
        example: "--title \"Atlantic storms 1975-2022\"")
    static let scale = OptionSpec("--scale", value: "linear|log|symlog[:SLOPE]",
        help: "How bin values map to colours (symlog as Swift Charts' symmetricLog). Default: linear.",
        example: "--scale log")

    // Hit
    static let at = OptionSpec("--at", value: "LAT,LON", repeatable: true,
        help: "A query point (repeatable; with --planar: Y,X). Without --at, query points are read from INPUT or standard input.",
        example: "--at -20.5,178.2")

    // Bin
    static let shape = OptionSpec("--shape", value: "hex|square|h3",
        help: "Cell shape: our hexagons, squares, or Uber's H3 cells (ids as the h3 library's). Default: hex.",
        example: "--shape square")
    static let size = OptionSpec("--size", value: "R",
        help: "Hexagon centre-to-corner radius, or square side: kilometres for geographic input (800m reads too), data units with --planar. Default: a fortieth of the data's longer side.",
        example: "--size 50")
    static let orientation = OptionSpec("--orientation", value: "pointy|flat",
        help: "Hexagon orientation. Default: pointy.",
        example: "--orientation flat")
    static let aggregate = OptionSpec("--aggregate", value: "count|sum|mean|min|max",
        help: "Per-cell aggregate of the --value column (or of the weights). Default: count.",
        example: "--aggregate mean")
    static let h3Resolution = OptionSpec("--h3-resolution", value: "R",
        help: "H3 resolution 0 (~1,100 km edges) to 15 (~0.5 m) for --shape h3. Default: from the data (the hexagon size bin would pick), or the coarsest --h3 input cell.",
        example: "--h3-resolution 7")
    static let h3Column = OptionSpec("--h3", value: "COLUMN",
        help: "Read pre-aggregated H3 cells: COLUMN holds the cell id (hex, or the 64-bit integer); --weight names the count column (default: count, weight or n if present, else 1 per row).",
        example: "--h3 h3_cell --weight n")
    static let includeEmpty = OptionSpec("--include-empty",
        help: "Also output every empty cell covering the data's box (a honeycomb with zeros). Refused when that makes more than --max-cells cells.",
        example: "--include-empty")
    static let maxCells = OptionSpec("--max-cells", value: "N",
        help: "With --include-empty, the most cells to output before refusing. Default: 1000000.",
        example: "--max-cells 5000000")

    // General
    static let help = OptionSpec("--help", short: "-h",
        help: "Show this help.",
        example: "--help")
}
