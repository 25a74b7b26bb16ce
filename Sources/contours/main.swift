import Foundation
import HeatMap

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// contours <command> [INPUT] [options]: parse, read, call the library, write.
// Exit status: 0 done, 1 bad data or failure, 2 usage, 130 interrupted.

StandardStreams.secure()
MemoryPolicy.fewArenas()
MemoryPolicy.reuseFreedMemory()
Interruption.install()

func runTool(_ arguments: [String]) -> Int32 {
    guard let first = arguments.first else {
        Console.line("contours: no command given; see 'contours --help'")
        return 2
    }
    switch first {
    case "-h", "--help":
        return show(Help.tool)
    case "--version", "-V":
        return show(Help.version + "\n")
    case "help":
        if arguments.count > 1, let c = Commands.named(arguments[1]) {
            return show(Help.command(c))
        }
        return show(Help.tool)
    default:
        break
    }
    guard let command = Commands.named(first) else {
        let what = first.hasPrefix("-") ? "option \(first) before a command" : "command '\(first)'"
        var message = "unknown \(what)"
        if let guess = suggestion(for: first, among: Commands.all.map(\.name)) {
            message += " (did you mean '\(guess)'?)"
        }
        Console.line(ToolError.usage(message, command: nil).line)
        return 2
    }
    var progress: ProgressReporter?
    do {
        let args = try ParsedArguments(Array(arguments.dropFirst()), for: command)
        if args.wantsHelp {
            return show(Help.command(command))
        }
        progress = ProgressReporter.make(forced: command.option(named: "--progress") != nil && args[Options.progress])
        let control = ComputeControl(cancellation: nil, progress: progress?.callback)
        try command.run(args, control)
        progress?.finish()
        return 0
    } catch {
        progress?.finish()
        let failure: ToolError
        switch error {
        case let e as ToolError: failure = e
        case let e as InputError: failure = .input(e)
        case let e as HeatMapError:
            // A smaller grid helps a stage sized by the grid (each names
            // it), not one sized by the points.
            if case .outOfMemory(_, _, let what) = e, what.contains("grid"),
                command.option(named: "--resolution") != nil
            {
                failure = .failure("\(e); try a smaller --resolution")
            } else {
                failure = .failure("\(e)")
            }
        default: failure = .failure("\(error)")
        }
        Console.line(failure.line)
        return failure.exitCode
    }
}

/// Writes a help text to standard output; a failure to write it is a failure.
func show(_ text: String) -> Int32 {
    do {
        try OutputFile.write(text, to: nil)
        return 0
    } catch {
        Console.line((error as? ToolError)?.line ?? "contours: \(error)")
        return 1
    }
}

exit(runTool(Array(CommandLine.arguments.dropFirst())))
