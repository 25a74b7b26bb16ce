#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation
import HeatMap

// contours <command> [INPUT] [options]: parse, read, call the library, write.
// Exit status: 0 done, 1 bad data or failure, 2 usage, 130 interrupted.

Interruption.install()

func runTool(_ arguments: [String]) -> Int32 {
    guard let first = arguments.first else {
        FileHandle.standardError.write(Data("contours: no command given; see 'contours --help'\n".utf8))
        return 2
    }
    switch first {
    case "-h", "--help":
        print(Help.tool, terminator: "")
        return 0
    case "--version", "-V":
        print(Help.version)
        return 0
    case "help":
        if arguments.count > 1, let c = Commands.named(arguments[1]) {
            print(Help.command(c), terminator: "")
        } else {
            print(Help.tool, terminator: "")
        }
        return 0
    default:
        break
    }
    guard let command = Commands.named(first) else {
        let what = first.hasPrefix("-") ? "option \(first) before a command" : "command '\(first)'"
        var message = "unknown \(what)"
        if let guess = suggestion(for: first, among: Commands.all.map(\.name)) { message += " (did you mean '\(guess)'?)" }
        FileHandle.standardError.write(Data((ToolError.usage(message, command: nil).line + "\n").utf8))
        return 2
    }
    var progress: ProgressReporter?
    do {
        let args = try ParsedArguments(Array(arguments.dropFirst()), for: command)
        if args.wantsHelp {
            print(Help.command(command), terminator: "")
            return 0
        }
        progress = ProgressReporter.make(forced: command.option(named: "--progress") != nil && args.flag(Options.progress))
        let control = ComputeControl(cancellation: nil, progress: progress?.callback)
        switch command.name {
        case "export": try ExportCommand.run(args, control: control)
        case "grid": try GridCommand.run(args, control: control)
        case "bin": try BinCommand.run(args, control: control)
        case "hit": try HitCommand.run(args, control: control)
        case "sql": try SQLCommand.run(args)
        default: try InfoCommand.run(args, control: control)
        }
        progress?.finish()
        return 0
    } catch {
        progress?.finish()
        let failure: ToolError
        switch error {
        case let e as ToolError: failure = e
        case let e as InputError: failure = .input(e)
        case let e as HeatMapError: failure = .failure("\(e)")
        default: failure = .failure("\(error)")
        }
        FileHandle.standardError.write(Data((failure.line + "\n").utf8))
        return failure.exitCode
    }
}

exit(runTool(Array(CommandLine.arguments.dropFirst())))
