import HeatMap

/// The time options (--time, --time-format, --frames, --window,
/// --cumulative, --from, --to): which columns hold the time, and how the
/// points are cut into frames (docs/time.md).
enum TimeSettings {
    /// The time columns to read, nil without --time.
    static func columns(_ args: ParsedArguments) throws -> TimeColumns? {
        guard args.command.option(named: Options.time.spec.name) != nil, let names = args[Options.time] else {
            if args.command.option(named: Options.timeFormat.spec.name) != nil, args.isGiven(Options.timeFormat) {
                throw ToolError.usage("--time-format goes with --time", command: args.command.name)
            }
            return nil
        }
        if names.count == 1 { return .column(names[0], format: args[Options.timeFormat]) }
        if args.isGiven(Options.timeFormat) {
            throw ToolError.usage(
                "--time-format is for one time column; \(names.count) columns are read as "
                    + TimeColumns.partNames.prefix(names.count).joined(separator: ", "),
                command: args.command.name)
        }
        return .parts(names)
    }

    /// How to cut the points into frames, nil without --frames.
    static func frames(_ args: ParsedArguments) throws -> TimeFrameOptions? {
        let command = args.command.name
        guard args.command.option(named: Options.frames.spec.name) != nil else { return nil }
        guard let step = args[Options.frames] else {
            for option in [Options.window, Options.from, Options.to] as [any OptionDeclaration]
            where args.isGiven(option) {
                throw ToolError.usage("\(option.spec.name) goes with --frames", command: command)
            }
            if args[Options.cumulative] { throw ToolError.usage("--cumulative goes with --frames", command: command) }
            if args.isGiven(Options.time) {
                throw ToolError.usage(
                    "--time is read to cut the points into frames: give --frames STEP too", command: command)
            }
            if args.isGiven(Options.frame) { throw ToolError.usage("--frame goes with --frames", command: command) }
            return nil
        }
        guard args.isGiven(Options.time) else {
            throw ToolError.usage("--frames needs each point's time: name its column(s) with --time", command: command)
        }
        if let from = args[Options.from], let to = args[Options.to], to <= from {
            throw ToolError.usage(
                "empty frame range: --to \(args.text(Options.to) ?? "") is not after --from \(args.text(Options.from) ?? "")",
                command: command)
        }
        return TimeFrameOptions(
            step: step, window: args[Options.window], cumulative: args[Options.cumulative],
            from: args[Options.from], to: args[Options.to])
    }
}
