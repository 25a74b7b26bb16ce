import Foundation
import HeatMap

/// `contours hit CONTOURS.geojson`: which band holds each query point.
enum HitCommand {
    /// The answer to one query, as a JSON line.
    struct Answer {
        var latitude: Double
        var longitude: Double
        var level: Int?
        var threshold: Double?
        var upper: Double?

        var json: String {
            func n(_ v: Double?) -> String { v.map(ArgumentValues.text) ?? "null" }
            return "{\"lat\":\(n(latitude)),\"lon\":\(n(longitude)),\"level\":\(level.map(String.init) ?? "null"),"
                + "\"threshold\":\(n(threshold)),\"upper\":\(n(upper))}\n"
        }
    }

    /// The bands of a contour file, indexed for point queries.
    struct Bands {
        let locator: BandLocator
        let thresholds: [Double?]
        let uppers: [Double?]
        let geographic: Bool

        init(_ features: [ContourFeature], geographic: Bool) {
            let count = (features.map(\.level).max() ?? -1) + 1
            var bands = [[PlanePolygon]](repeating: [], count: count)
            var thresholds = [Double?](repeating: nil, count: count)
            var uppers = [Double?](repeating: nil, count: count)
            for f in features {
                bands[f.level].append(contentsOf: f.polygons)
                thresholds[f.level] = thresholds[f.level] ?? f.threshold
                uppers[f.level] = uppers[f.level] ?? f.upper
            }
            locator = BandLocator(bands: bands)
            self.thresholds = thresholds
            self.uppers = uppers
            self.geographic = geographic
        }

        func answer(latitude: Double, longitude: Double) -> Answer {
            var level: Int?
            if geographic {
                // Contour files hold longitudes in [-180, 180], split at the antimeridian.
                let lon = LongitudeArc.normalized(longitude)
                level = locator.band(at: PlanePoint(x: lon, y: latitude))
                if lon == -180 {
                    // ±180° is one meridian, drawn on both edges of the file: a
                    // point on it lies in the upper of the bands either edge gives.
                    let east = locator.band(at: PlanePoint(x: 180, y: latitude))
                    if let east, east > level ?? -1 { level = east }
                }
            } else {
                level = locator.band(at: PlanePoint(x: longitude, y: latitude))
            }
            return Answer(
                latitude: latitude, longitude: longitude, level: level,
                threshold: level.flatMap { thresholds[$0] }, upper: level.flatMap { uppers[$0] })
        }
    }

    static func run(_ args: ParsedArguments, control: ComputeControl) throws {
        let operands = args.operands
        guard let contoursPath = operands.first else {
            throw ToolError.usage(
                "hit needs the contour file: contours hit CONTOURS.geojson --at LAT,LON",
                command: args.command.name)
        }
        let options = try Settings.reader(args)
        let queries = args.all(Options.at).compactMap { $0 }
        if !queries.isEmpty && operands.count > 1 {
            throw ToolError.usage("give query points with --at or as INPUT, not both", command: args.command.name)
        }
        let input = queries.isEmpty ? try Settings.input(args, operands: operands.dropFirst()) : nil
        let output = try Settings.output(args)

        let features = try GeoJSONContourReader.read(
            path: contoursPath, geographic: options.geographic, frame: args[Options.hitFrame])
        let bands = Bands(features, geographic: options.geographic)
        let out = try OutputFile(path: output)
        if !queries.isEmpty {
            for q in queries { try out.write(bands.answer(latitude: q.latitude, longitude: q.longitude).json) }
            try out.commit()
            return
        }
        let reader = try PointReader(path: input, options: options)
        // Queries typed or piped in get their answers as they come.
        let interactive = !reader.isRegularFile && output == nil
        var count = 0
        while let p = try reader.next() {
            try out.write(bands.answer(latitude: p.latitude, longitude: p.longitude).json)
            if interactive { try out.flush() }
            count += 1
            if count & 0xffff == 0 { try control.checkCancellation() }
        }
        try out.commit()
        Console.report(reader.rejections, rows: reader.rowsRead)
    }
}
