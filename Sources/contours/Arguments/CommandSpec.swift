import HeatMap

/// One command of the tool: its synopsis, what it does, its options and
/// worked examples, as `contours <command> --help` prints them, and what
/// runs it. ``Commands/all`` is the command table: a name it does not hold
/// is refused, never run as another command.
struct CommandSpec: Sendable {
    typealias Run = @Sendable (ParsedArguments, ComputeControl) throws -> Void

    let name: String
    /// Runs the command on its parsed arguments.
    let run: Run
    let synopsis: String
    let summary: String
    let details: String
    let options: [OptionSpec]
    let examples: [String]

    init(
        name: String, run: @escaping Run, synopsis: String, summary: String, details: String,
        options: [any OptionDeclaration], examples: [String]
    ) {
        self.name = name
        self.run = run
        self.synopsis = synopsis
        self.summary = summary
        self.details = details
        self.options = options.map(\.spec)
        self.examples = examples
    }

    func option(named name: String) -> OptionSpec? {
        options.first { $0.name == name || $0.short == name }
    }
}

enum Commands {
    static let columnOptions: [any OptionDeclaration] = [
        Options.lat, Options.lon, Options.weight, Options.value,
        Options.planar
    ]
    /// How the density commands read INPUT: points, or a cells table.
    static let inputOptions = columnOptions + [Options.inputFormatOrCells, Options.skipInvalid]
    static let densityOptions: [any OptionDeclaration] = [
        Options.radius, Options.kernel, Options.kernelValues,
        Options.adaptive, Options.adaptiveTrim, Options.radiusColumn,
        Options.resolution, Options.padding,
        Options.projection, Options.h3Column
    ]
    static let levelOptions: [any OptionDeclaration] = [Options.levels, Options.spacing]
    static let timeOptions: [any OptionDeclaration] = [
        Options.time, Options.timeFormat, Options.frames, Options.window,
        Options.cumulative, Options.from, Options.to
    ]
    static let pictureOptions: [any OptionDeclaration] = [
        Options.gradient, Options.opacity, Options.legend,
        Options.basemap, Options.graticule, Options.scaleBar,
        Options.units, Options.width, Options.height, Options.title,
        Options.basemapTiles, Options.attribution
    ]

    static let export = CommandSpec(
        name: "export",
        run: { try ExportCommand.run($0, control: $1) },
        synopsis: "contours export [INPUT] [options]",
        summary: "Contour the kernel density of the points (or a raster) and write GeoJSON (or SVG, HTML).",
        details: """
            INPUT is a CSV file with a header row (comma, semicolon or tab separated) or GeoJSON
            Point/MultiPoint features; '-' or nothing reads standard input. GeoJSON output follows
            RFC 7946: [longitude, latitude] positions, counter-clockwise exteriors, a bbox, geometry
            split at the antimeridian, and per feature level, threshold, upper, units and the
            simplestyle keys fill, fill-opacity and stroke. INPUT may also be a raster — a GeoTIFF, an
            ESRI ASCII grid (with its .prj) or a JSON grid of 'contours grid' — contoured as it is
            (NoData below every level); rasters in EPSG:4326, EPSG:3857, UTM (EPSG:326zz/327zz) or this
            tool's own CRSs are written in longitude/latitude, other CRSs need --keep-crs.
            """,
        options: inputOptions + densityOptions + levelOptions + timeOptions + [Options.frame]
            + [
                Options.interval, Options.offset, Options.expBase, Options.attributes, Options.keepCRS, Options.crs,
                Options.smooth, Options.simplify, Options.mode, Options.feature, Options.precision,
                Options.exportFormat,
                Options.output
            ]
            + pictureOptions + [Options.render, Options.progress, Options.help],
        examples: [
            "contours export storms.csv --weight wind -o storms.geojson",
            "contours export quakes.csv --radius 50km --spacing nice --levels 8 > quakes.geojson",
            "contours export ames.csv --value Sale_Price --mode isolines -o prices.geojson",
            "contours export snow_deaths.csv --planar --radius 0.9 --smooth none",
            "contours export dem.tif --interval 100 --smooth none --attributes gdal -o dem.geojson",
            "contours export quakes.csv --format html --basemap coast.geojson --title 'Fiji quakes' -o quakes.html"
        ])

    static let tiles = CommandSpec(
        name: "tiles",
        run: { try TilesCommand.run($0, control: $1) },
        synopsis: "contours tiles [INPUT] -o FILE.pmtiles [options]",
        summary: "Write vector tiles (PMTiles) of the density's bands, contoured at every zoom's own resolution.",
        details: """
            Geographic points only. Each zoom is contoured from the kernel density summed at nodes four
            screen pixels apart, with the radius and thresholds an export of the same points and options
            would use, so a band means the same density at every scale. Tiles are Mapbox Vector Tiles
            (extent 4096) with a 'bands' layer (level, threshold, upper, units, fill; 'isolines' too with
            --render both), gzipped in one PMTiles v3 file: empty tiles are left out, tiles wholly inside
            one band stored once. Open it in MapLibre, OpenLayers or QGIS (docs/tiles.md).
            """,
        options: inputOptions + densityOptions + levelOptions
            + [
                Options.interval, Options.offset, Options.expBase, Options.smooth, Options.gradient, Options.units,
                Options.render, Options.minZoom, Options.maxZoom, Options.tileBins, Options.output, Options.progress,
                Options.help
            ],
        examples: [
            "contours tiles quakes.csv -o quakes.pmtiles",
            "contours tiles storms.csv --weight wind --spacing nice --max-zoom 8 -o storms.pmtiles",
            "contours tiles stops.csv --radius 300m --render both -o stops.pmtiles"
        ])

    static let grid = CommandSpec(
        name: "grid",
        run: { try GridCommand.run($0, control: $1) },
        synopsis: "contours grid [INPUT] [options]",
        summary: "Write the density grid itself (JSON or ESRI ASCII grid).",
        details: """
            Values are weight per km² for geographic input (per square unit with --planar), sampled
            at the cell centres of the projected plane: value k is at (x0 + (k % columns)·dx,
            y0 + (k / columns)·dy). With --value the grid holds the kernel-weighted mean (null where
            too few points are near).
            """,
        options: inputOptions + densityOptions + timeOptions + [
            Options.gridFormat, Options.float64, Options.crs, Options.output,
            Options.progress, Options.help
        ],
        examples: [
            "contours grid snow_deaths.csv --planar --radius 0.5 --resolution 120 -o grid.json",
            "contours grid quakes.csv --format asc -o quakes.asc",
            "contours grid storms.csv --weight wind --format tiff -o storms.tif"
        ])

    static let bin = CommandSpec(
        name: "bin",
        run: { try BinCommand.run($0, control: $1) },
        synopsis: "contours bin [INPUT] [options]",
        summary: "Count or aggregate the points in hexagons or squares.",
        details: """
            Geographic input is binned in the equal-area plane (sizes in kilometres); --planar bins the
            coordinates as given. Each cell has an id, a centre, its polygon and the aggregates.
            """,
        options: columnOptions + [
            Options.inputFormat, Options.skipInvalid, Options.projection, Options.shape, Options.size,
            Options.orientation,
            Options.h3Resolution, Options.h3Column, Options.aggregate, Options.includeEmpty, Options.maxCells,
            Options.precision, Options.binFormat,
            Options.output
        ]
            + pictureOptions + [Options.scale, Options.progress, Options.help],
        examples: [
            "contours bin airports.csv --size 100 -o airports-hex.geojson",
            "contours bin ames.csv --value Sale_Price --aggregate mean --shape square --size 0.5 --format csv",
            "contours bin snow_deaths.csv --planar --size 0.5 --format svg -o snow-hex.svg",
            "contours bin quakes.csv --shape h3 --h3-resolution 4 -o quakes-h3.geojson",
            "contours bin warehouse_counts.csv --h3 h3_cell --weight n --h3-resolution 5 --format html -o map.html"
        ])

    static let hit = CommandSpec(
        name: "hit",
        run: { try HitCommand.run($0, control: $1) },
        synopsis: "contours hit CONTOURS.geojson [INPUT] [--at LAT,LON ...] [options]",
        summary: "Tell which band of an exported contour file each query point falls in.",
        details: """
            Prints one JSON line per query: {"lat":…,"lon":…,"level":L or null,"threshold":…,"upper":…}.
            Queries come from --at, else from the points of INPUT (or standard input), read like any
            input (--lat, --lon, --input-format, --skip-invalid). A point on a boundary between two
            bands belongs to the upper band. A file of frames answers for the frame --frame names.
            """,
        options: [
            Options.at, Options.lat, Options.lon, Options.planar, Options.hitFrame, Options.inputFormat,
            Options.skipInvalid, Options.output, Options.help
        ],
        examples: [
            "contours hit quakes.geojson --at -20.5,178.2 --at -17,-179.9",
            "contours hit storms.geojson ports.csv",
            "printf 'lat,lon\\n25,-80\\n' | contours hit storms.geojson",
            "contours hit storms-by-year.geojson --frame 12 --at 25.8,-80.2"
        ])

    static let info = CommandSpec(
        name: "info",
        run: { try InfoCommand.run($0, control: $1) },
        synopsis: "contours info [INPUT] [options]",
        summary: "Describe the input and the map it gives: points read and rejected, box, radius, grid, thresholds.",
        details: """
            Takes the same options as export, so it shows what an export with them would use.
            """,
        options: inputOptions + densityOptions + levelOptions + [Options.infoFormat, Options.progress, Options.help],
        examples: [
            "contours info storms.csv --weight wind",
            "contours info quakes.csv --spacing nice --format json"
        ])

    static let sql = CommandSpec(
        name: "sql",
        run: {
            _ = $1; try SQLCommand.run($0)
        },
        synopsis: "contours sql --table NAME [--dialect duckdb|spark|postgres] [options]",
        summary: "Print one SQL statement that computes the grid's cells inside DuckDB, Spark or PostgreSQL.",
        details: """
            The statement does all the per-point work in the engine, from the table itself: rows the tool
            would reject are left out and counted, the projection is centred on the smallest longitude arc,
            the radius rule and the grid geometry are the tool's, and each point is summed into its grid
            node (a finite --kernel: into every node of its disc, about 3 r²/cell² rows per point in the
            engine, or, where the tool would bin them itself, from 19 cells for the quartic and 10 for
            the triweight, into its cell's 4 × 4 cubic weights). Save its result as CSV with a header (COPY … TO, df.write.csv, \\copy) and give
            that file to grid, export or info, which finish the job without repeating any option. --lat
            and --lon default to lat and lon (y and x with --planar). Not in SQL: --adaptive,
            --radius-column and --radius arcgis.
            """,
        options: [
            Options.dialect, Options.table, Options.lat, Options.lon, Options.weight, Options.value,
            Options.planar
        ] + densityOptions + [Options.output, Options.help],
        examples: [
            "contours sql --table \"read_parquet('points.parquet')\" --weight w > cells.sql",
            "duckdb -csv -c \"$(contours sql --table \"read_csv('points.csv')\")\" > cells.csv && contours export cells.csv",
            "contours sql --dialect postgres --table public.stops --lat latitude --lon longitude"
        ])

    static let all = [export, tiles, grid, bin, hit, info, sql]

    static func named(_ name: String) -> CommandSpec? { all.first { $0.name == name } }
}
