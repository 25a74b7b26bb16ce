import Foundation

/// The options and operands given to one command, checked against its
/// ``CommandSpec``: every option known, values present, nothing repeated
/// that may not be.
struct ParsedArguments {
    let command: CommandSpec
    /// Operands in order (INPUT, or CONTOURS and INPUT for hit).
    private(set) var operands: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []
    /// Whether --help was asked for.
    private(set) var wantsHelp = false

    /// Parses `arguments` (those after the command name).
    ///
    /// - Throws: ``ToolError/usage(_:command:)`` for an unknown option
    ///   (with a "did you mean"), a missing value, a value given to a
    ///   flag, or an option repeated that may not be.
    init(_ arguments: [String], for command: CommandSpec) throws {
        self.command = command
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
            if spec.name == "--help" {
                wantsHelp = true
                continue
            }
            if !spec.takesValue {
                if inline != nil {
                    throw ToolError.usage("option \(spec.name) takes no value", command: command.name)
                }
                flags.insert(spec.name)
                continue
            }
            let value: String
            if let inline {
                value = inline
            } else if k < arguments.count {
                value = arguments[k]
                k += 1
            } else {
                throw ToolError.usage("option \(spec.name) needs a value (\(spec.value!)), e.g. \(spec.example)",
                                      command: command.name)
            }
            if values[spec.name] != nil && !spec.repeatable {
                throw ToolError.usage("option \(spec.name) given more than once", command: command.name)
            }
            values[spec.name, default: []].append(value)
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

    /// Whether the flag was given.
    func flag(_ spec: OptionSpec) -> Bool { flags.contains(spec.name) }

    /// The option's value, if given.
    func string(_ spec: OptionSpec) -> String? { values[spec.name]?.last }

    /// Every value of a repeatable option.
    func strings(_ spec: OptionSpec) -> [String] { values[spec.name] ?? [] }

    /// A usage error about a bad value, with the option's example.
    func bad(_ spec: OptionSpec, _ value: String, _ why: String) -> ToolError {
        ToolError.usage("bad value '\(value)' for \(spec.name): \(why) (e.g. \(spec.example))", command: command.name)
    }

    /// One of the given words.
    func choice<T>(_ spec: OptionSpec, _ table: [(String, T)]) throws -> T? {
        guard let v = string(spec) else { return nil }
        if let hit = table.first(where: { $0.0 == v.lowercased() }) { return hit.1 }
        let words = table.map(\.0)
        var why = "expected one of \(words.joined(separator: ", "))"
        if let guess = suggestion(for: v.lowercased(), among: words) { why += "; did you mean \(guess)?" }
        throw bad(spec, v, why)
    }

    /// A whole number in `range`.
    func integer(_ spec: OptionSpec, in range: ClosedRange<Int>) throws -> Int? {
        guard let v = string(spec) else { return nil }
        guard let n = Int(v.trimmingCharacters(in: .whitespaces)) else {
            throw bad(spec, v, "expected a whole number")
        }
        guard range.contains(n) else {
            throw bad(spec, v, "expected a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return n
    }

    /// A finite number of at least `minimum` (strictly above when `open`).
    func number(_ spec: OptionSpec, minimum: Double, open: Bool = false) throws -> Double? {
        guard let v = string(spec) else { return nil }
        guard let x = ArgumentValues.number(v) else { throw bad(spec, v, "expected a number") }
        guard x.isFinite else { throw bad(spec, v, "expected a finite number") }
        if open ? x <= minimum : x < minimum {
            throw bad(spec, v, "expected a number \(open ? ">" : ">=") \(ArgumentValues.text(minimum))")
        }
        return x
    }
}

/// Small parsers for option values.
enum ArgumentValues {
    /// A decimal number (no hex, no words but inf/nan, which callers refuse).
    static func number(_ text: String) -> Double? {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard !t.isEmpty, t.allSatisfy({ "0123456789+-.eE".contains($0) }) || ["inf", "-inf", "nan"].contains(t.lowercased())
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
