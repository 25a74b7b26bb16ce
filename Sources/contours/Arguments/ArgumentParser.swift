import Foundation
import HeatMap

/// The options and operands given to one command, checked against its
/// ``CommandSpec``: every option known, values present and readable,
/// nothing repeated that may not be. Values are read once, here, by their
/// declarations (``Options``) and handed out typed.
struct ParsedArguments {
    let command: CommandSpec
    /// Operands in order (INPUT, or CONTOURS and INPUT for hit).
    private(set) var operands: [String] = []
    /// The texts given, per option name, in order.
    private var texts: [String: [String]] = [:]
    /// The values read from them.
    private var values: [String: [any Sendable]] = [:]
    private var flags: Set<String> = []
    /// Whether --help was asked for.
    private(set) var wantsHelp = false

    /// Parses `arguments` (those after the command name).
    ///
    /// - Throws: ``ToolError/usage(_:command:)`` for an unknown option
    ///   (with a "did you mean"), a missing value, a value given to a
    ///   flag, or an option repeated that may not be (all found before any
    ///   value is read); then for the first value, in command-line order,
    ///   that its declaration refuses.
    init(_ arguments: [String], for command: CommandSpec) throws {
        self.command = command
        var given: [(OptionSpec, String)] = []
        var k = 0
        var onlyOperands = false
        while k < arguments.count {
            let arg = arguments[k]
            k += 1
            if onlyOperands || arg == "-" || !arg.hasPrefix("-") {
                operands.append(arg)
                continue
            }
            if arg == "--" {
                onlyOperands = true
                continue
            }
            var name = arg
            var inline: String?
            if let eq = arg.firstIndex(of: "=") {
                name = String(arg[..<eq])
                inline = String(arg[arg.index(after: eq)...])
            }
            guard let spec = command.option(named: name) else {
                throw unknownOption(name)
            }
            if spec.name == Options.help.spec.name {
                wantsHelp = true
                continue
            }
            guard let placeholder = spec.value else {
                if inline != nil {
                    throw ToolError.usage("option \(spec.name) takes no value", command: command.name)
                }
                flags.insert(spec.name)
                continue
            }
            let value: String
            if let inline {
                value = inline
            } else if let bare = spec.bareValue {
                // The next argument is the value only when it reads as a number.
                if k < arguments.count, ArgumentValues.number(arguments[k]) != nil {
                    value = arguments[k]
                    k += 1
                } else {
                    value = bare
                }
            } else if k < arguments.count {
                value = arguments[k]
                k += 1
            } else {
                throw ToolError.usage(
                    "option \(spec.name) needs a value (\(placeholder)), e.g. \(spec.example)",
                    command: command.name)
            }
            if texts[spec.name] != nil && !spec.repeatable {
                throw ToolError.usage("option \(spec.name) given more than once", command: command.name)
            }
            texts[spec.name, default: []].append(value)
            given.append((spec, value))
        }
        guard !wantsHelp else { return }
        let projection = texts[Options.projection.spec.name]?.last?.lowercased()
        let context = ValueContext(
            geographic: !flags.contains(Options.planar.spec.name)
                && projection != MapProjection.planar.rawValue)
        for (spec, text) in given {
            guard let read = spec.read else { continue }
            do {
                values[spec.name, default: []].append(try read(text, context))
            } catch ValueRefusal.because(let why) {
                throw bad(spec, text, why)
            } catch ValueRefusal.message(let message) {
                throw ToolError.usage(message, command: command.name)
            }
        }
    }

    private func unknownOption(_ name: String) -> ToolError {
        let mine = command.options.map(\.name)
        var message = "unknown option \(name)"
        if let guess = suggestion(for: name, among: mine) {
            message += " (did you mean \(guess)?)"
        } else if let other = Commands.all.first(where: { $0.option(named: name) != nil }) {
            message += " for \(command.name) (it is an option of '\(other.name)')"
        }
        return ToolError.usage(message, command: command.name)
    }

    // MARK: Reading values

    /// The option's value: the last one given, else its default.
    subscript<Value>(_ option: Option<Value>) -> Value {
        given(option) ?? option.defaultValue
    }

    /// Whether the flag was given.
    subscript(_ flag: Flag) -> Bool { flags.contains(flag.spec.name) }

    /// The option's value if it was given, nil if not.
    func given<Value>(_ option: Option<Value>) -> Value? {
        values[option.spec.name]?.last.flatMap { $0 as? Value }
    }

    /// A `--format` choice: as given; else the one the extension of the
    /// `-o` file names (any of the choice's words, in any case: `map.svg`,
    /// `density.tif`, `bins.csv`), as GDAL's tools pick a driver; else its
    /// default (standard output, or an extension it does not know).
    func format<Value>(_ option: Option<Value>) -> Value {
        if let value = given(option) { return value }
        guard let file = self[Options.output], let read = option.spec.read,
            let dot = file.lastIndex(of: "."), !file[dot...].contains("/")
        else { return option.defaultValue }
        let named = try? read(String(file[file.index(after: dot)...]).lowercased(), ValueContext(geographic: true))
        return named as? Value ?? option.defaultValue
    }

    /// Every value given to a repeatable option, in order.
    func all<Value>(_ option: Option<Value>) -> [Value] {
        (values[option.spec.name] ?? []).compactMap { $0 as? Value }
    }

    /// Whether the option (or flag) was given.
    func isGiven(_ option: any OptionDeclaration) -> Bool {
        texts[option.spec.name] != nil || flags.contains(option.spec.name)
    }

    /// The text given to the option, as typed (for messages).
    func text(_ option: any OptionDeclaration) -> String? { texts[option.spec.name]?.last }

    /// Every text given to a repeatable option (for messages and checks).
    func texts(_ option: any OptionDeclaration) -> [String] { texts[option.spec.name] ?? [] }

    /// A usage error about a bad value, with the option's example.
    func bad(_ option: any OptionDeclaration, _ value: String, _ why: String) -> ToolError {
        bad(option.spec, value, why)
    }

    private func bad(_ spec: OptionSpec, _ value: String, _ why: String) -> ToolError {
        ToolError.usage("bad value '\(value)' for \(spec.name): \(why) (e.g. \(spec.example))", command: command.name)
    }
}

/// Small parsers for option values.
enum ArgumentValues {
    /// A decimal number (no hex, no words but inf/nan, which callers refuse).
    static func number(_ text: String) -> Double? {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard !t.isEmpty,
            t.allSatisfy({ "0123456789+-.eE".contains($0) }) || ["inf", "-inf", "nan"].contains(t.lowercased())
        else { return nil }
        return Double(t)
    }

    /// A length with an optional unit: "2500", "2.5km", "800m". Units are
    /// metres; km multiplies by 1000.
    static func length(_ text: String) -> Double? {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        if t.hasSuffix("km") { return number(String(t.dropLast(2))).map { $0 * 1000 } }
        if t.hasSuffix("m") { return number(String(t.dropLast(1))) }
        return number(t)
    }

    /// Shortest text of a number (2 rather than 2.0).
    static func text(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return "\(v)"
    }
}
