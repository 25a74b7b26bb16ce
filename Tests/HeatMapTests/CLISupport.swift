import Foundation
import Testing

/// A scratch folder for one test, removed when the value is dropped.
final class ScratchFolder: @unchecked Sendable {
    let url: URL
    var path: String { url.path }

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("heatmap-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes a file and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        try write(name, Array(text.utf8))
    }

    /// Writes a file of bytes and returns its path.
    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let file = url.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        return file.path
    }

    /// The path of `name` in the folder.
    func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// The names in the folder, sorted.
    func contents() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    /// The text of a file in the folder.
    func read(_ name: String) -> String? {
        (try? Data(contentsOf: url.appendingPathComponent(name))).map { String(decoding: $0, as: UTF8.self) }
    }
}

/// What one run of the tool gave.
struct ToolRun: Sendable {
    var status: Int32
    var stdout: String
    var stderr: String
    /// Whether the process ended by a signal (status is then the signal).
    var signalled: Bool

    /// Standard error's lines, without the empty last one.
    var stderrLines: [String] { stderr.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }

    /// Standard output parsed as JSON.
    func json() throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
        return try #require(object as? [String: Any])
    }
}

/// Runs the built `contours` executable.
enum Tool {
    /// The executable: next to the test bundle (the same build), else in
    /// .build/debug of the package that holds this file.
    static let executable: URL? = {
        var candidates: [URL] = []
        if let first = CommandLine.arguments.first {
            var dir = URL(fileURLWithPath: first).deletingLastPathComponent()
            // An .xctest bundle on macOS nests the binary a few folders down.
            for _ in 0..<4 {
                candidates.append(dir.appendingPathComponent("contours"))
                dir = dir.deletingLastPathComponent()
            }
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug/contours"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// Runs `contours` with `arguments`, standard input from `stdin` (a
    /// path; /dev/null when nil) or the given bytes, `TMPDIR` set to
    /// `temporary` when given, in `directory` when given. A run longer than `timeout` seconds is
    /// killed and reported as a failure: the tool must never hang.
    static func run(
        _ arguments: [String], stdin: String? = nil, input: [UInt8]? = nil,
        temporary: String? = nil, directory: String? = nil, timeout: Double = 120,
        shell: Bool = false
    ) throws -> ToolRun {
        let executable = try #require(executable, "build the tool first: swift build --product contours")
        let process = Process()
        // With `shell`, the arguments go to bash (-c SCRIPT), for runs that
        // close or redirect streams or limit memory.
        process.executableURL = shell ? URL(fileURLWithPath: "/bin/bash") : executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        var environment = ProcessInfo.processInfo.environment
        if let temporary { environment["TMPDIR"] = temporary }
        process.environment = environment
        let scratch = try ScratchFolder()
        let outPath = scratch.file("stdout"), errPath = scratch.file("stderr")
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        process.standardOutput = out
        process.standardError = err
        var pipe: Pipe?
        if input != nil {
            let p = Pipe()
            pipe = p
            process.standardInput = p
        } else {
            process.standardInput = FileHandle(forReadingAtPath: stdin ?? "/dev/null")
        }
        try process.run()
        if let input, let pipe {
            // Write from another thread so a tool that stops reading early cannot block the test.
            let writer = pipe.fileHandleForWriting
            let data = Data(input)
            Thread.detachNewThread {
                try? writer.write(contentsOf: data)
                try? writer.close()
            }
        }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(2_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            Issue.record("contours \(arguments.joined(separator: " ")) did not finish in \(timeout) s")
        }
        process.waitUntilExit()
        try out.close()
        try err.close()
        return ToolRun(
            status: process.terminationStatus, stdout: scratch.read("stdout") ?? "",
            stderr: scratch.read("stderr") ?? "",
            signalled: process.terminationReason == .uncaughtSignal)
    }
}
