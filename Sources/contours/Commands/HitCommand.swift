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
                if level == nil, lon == -180 { level = locator.band(at: PlanePoint(x: 180, y: latitude)) }
            } else {
                level = locator.band(at: PlanePoint(x: longitude, y: latitude))
            }
            return Answer(latitude: latitude, longitude: longitude, level: level,
                          threshold: level.flatMap { thresholds[$0] }, upper: level.flatMap { uppers[$0] })
        }
    }

    static func run(_ args: ParsedArguments, control: ComputeControl) throws {
        let operands = args.operands
        guard let contoursPath = operands.first else {
            throw ToolError.usage("hit needs the contour file: contours hit CONTOURS.geojson --at LAT,LON",
                                  command: args.command.name)
        }
        let options = try Settings.reader(args)
        let queries = try args.strings(Options.at).map { try parseAt($0, args: args, geographic: options.geographic) }
        if !queries.isEmpty && operands.count > 1 {
            throw ToolError.usage("give query points with --at or as INPUT, not both", command: args.command.name)
        }
        let input = queries.isEmpty ? try Settings.input(args, operands: operands.dropFirst()) : nil
        let output = try Settings.output(args)

        let features = try GeoJSONContourReader.read(path: contoursPath, geographic: options.geographic)
        let bands = Bands(features, geographic: options.geographic)
        let out = try OutputFile(path: output)
        if !queries.isEmpty {
            for (lat, lon) in queries { try out.write(bands.answer(latitude: lat, longitude: lon).json) }
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

    /// "LAT,LON" (Y,X with --planar).
    static func parseAt(_ text: String, args: ParsedArguments, geographic: Bool) throws -> (Double, Double) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, let lat = ArgumentValues.number(parts[0]), let lon = ArgumentValues.number(parts[1]),
              lat.isFinite, lon.isFinite else {
            throw args.bad(Options.at, text, geographic ? "expected LAT,LON in degrees" : "expected Y,X numbers")
        }
        if geographic {
            guard (-90...90).contains(lat) else { throw args.bad(Options.at, text, "latitude outside [-90, 90]") }
            guard lon >= -180 && lon < 360 else { throw args.bad(Options.at, text, "longitude outside [-180, 360)") }
        }
        return (lat, lon)
    }
}
