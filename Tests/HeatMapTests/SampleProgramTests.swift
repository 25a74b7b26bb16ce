import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Runs each sample program of Samples/ as a user would (the built
/// executable in .build/debug, in the package root, output into a temporary
/// folder) and checks what it wrote: exit status 0, SVG that parses as XML
/// with the expected kinds of shapes, HTML with no external URL.
@Suite("Sample programs")
struct SampleProgramTests {
    @Test("sample-storms writes an SVG of contour bands with a legend", SampleRun.built("sample-storms"))
    func storms() throws {
        let run = try SampleRun("sample-storms", arguments: { dir in [dir.appendingPathComponent("storms.svg").path] })
        try #require(run.status == 0, "sample-storms failed: \(run.stderr)")
        let svg = try run.text("storms.svg")
        let document = try XMLDocument(xmlString: svg)
        let bands = try document.nodes(forXPath: "//*[local-name()='path'][@data-level]")
        #expect(bands.count > 10, "expected many band paths, got \(bands.count)")
        // Every band's level and threshold are numbers, levels from 0 up.
        let levels = bands.compactMap { ($0 as? XMLElement)?.sampleAttribute("data-level") }
            .compactMap(Int.init)
        #expect(levels.count == bands.count)
        #expect(levels.min() == 0)
        let thresholds = bands.compactMap { ($0 as? XMLElement)?.sampleAttribute("data-threshold") }
            .compactMap(Double.init)
        #expect(thresholds.count == bands.count && thresholds.allSatisfy { $0 > 0 })
        // The legend: its caption and labels with units.
        #expect(svg.contains("kn × fixes per km²"))
        #expect(svg.contains("0.02 per km²"))
        #expect(run.stdout.contains("19537 storm fixes"))
    }

    @Test(
        "sample-hexbins writes hexagons holding every earthquake, as SVG and offline HTML",
        SampleRun.built("sample-hexbins"))
    func hexbins() throws {
        let run = try SampleRun(
            "sample-hexbins",
            arguments: { dir in [dir.appendingPathComponent("quakes.svg").path] })
        try #require(run.status == 0, "sample-hexbins failed: \(run.stderr)")
        let svg = try run.text("quakes.svg")
        let document = try XMLDocument(xmlString: svg)
        let bins = try document.nodes(forXPath: "//*[@data-count]").compactMap { $0 as? XMLElement }
        let counts = bins.compactMap { $0.sampleAttribute("data-count") }.compactMap(Int.init)
        #expect(counts.count == bins.count)
        // The file has 1000 earthquakes, all valid: the hexagons hold each once.
        #expect(counts.reduce(0, +) == 1000)
        #expect(counts.contains(0), "the honeycomb includes empty hexagons")
        // Regular hexagons: six corners each, six equal sides (to the
        // picture's 0.01 px rounding), so the map is neither squashed nor stretched.
        for bin in bins.prefix(50) {
            let d = bin.sampleAttribute("d") ?? ""
            let numbers = d.split(whereSeparator: { !"0123456789.-".contains($0) }).compactMap { Double($0) }
            try #require(numbers.count == 12, "not a hexagon: \(d)")
            let sides = (0..<6).map { k -> Double in
                let (a, b) = (k * 2, ((k + 1) % 6) * 2)
                return hypot(numbers[b] - numbers[a], numbers[b + 1] - numbers[a + 1])
            }
            #expect(sides.max()! - sides.min()! < 0.05, "irregular hexagon, sides \(sides)")
        }
        // The coastline is drawn: a basemap path of many subpaths (islands).
        let basemap = try document.nodes(forXPath: "//*[local-name()='path']").compactMap { $0 as? XMLElement }
            .filter { $0.sampleAttribute("class") == "basemap" }
        let islands = basemap.map { ($0.sampleAttribute("d") ?? "").filter { $0 == "M" }.count }.reduce(0, +)
        #expect(islands > 10, "expected the NZ coastline's islands, got \(islands) subpaths")
        #expect(svg.utf8.count < 1_000_000)

        let html = try run.text("quakes.html")
        #expect(html.contains("data-count"))
        #expect(SampleRun.externalURLs(in: html).isEmpty, "external URLs: \(SampleRun.externalURLs(in: html))")
    }

    @Test("sample-ames writes a mean-price map as offline HTML and answers taps", SampleRun.built("sample-ames"))
    func ames() throws {
        let run = try SampleRun("sample-ames", arguments: { dir in [dir.appendingPathComponent("ames.html").path] })
        try #require(run.status == 0, "sample-ames failed: \(run.stderr)")
        let html = try run.text("ames.html")
        #expect(html.contains("<svg"))
        #expect(html.contains("data-level"))
        #expect(html.contains("<script"), "the page needs its tap-to-inspect script")
        #expect(SampleRun.externalURLs(in: html).isEmpty, "external URLs: \(SampleRun.externalURLs(in: html))")
        #expect(run.stdout.contains("2930 sales"))

        // Thresholds of a mean map are prices: inside the range of the sales.
        let thresholds = run.stdout.split(separator: "\n").compactMap { line -> Double? in
            guard let r = line.range(of: "mean price ≥ ") else { return nil }
            return Double(line[r.upperBound...].prefix { $0.isNumber })
        }
        #expect(thresholds.count == 8, "expected the sample's 8 price levels: \(run.stdout)")
        #expect(thresholds.allSatisfy { (12_789...755_000).contains($0) }, "thresholds \(thresholds) are not prices")
        // The taps: the north-west is dear, outside town the mean is undefined.
        let northWest = run.stdout.split(separator: "\n").first { $0.contains("north-west") }
            .flatMap { line in line.range(of: "mean ≈ ").map { Double(line[$0.upperBound...].prefix { $0.isNumber }) } }
        #expect((300_000...600_000).contains(northWest.flatMap { $0 } ?? 0), "north-west mean: \(run.stdout)")
        #expect(run.stdout.contains("farmland west of town (42.03, -93.73): no mean"))
    }

    @Test("sample-quakes computes bands asynchronously and answers taps", SampleRun.built("sample-quakes"))
    func quakes() throws {
        let run = try SampleRun("sample-quakes", arguments: { _ in [] })
        try #require(run.status == 0, "sample-quakes failed: \(run.stderr)")
        #expect(run.stdout.contains("1000 earthquakes"))
        #expect(run.stdout.contains("levels") && !run.stdout.contains(", 0 polygons"), "\(run.stdout)")
        // The tap on the Tonga trench lies in a band; the open sea in none.
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.contains { $0.contains("(-20.0, -178.0)") && $0.contains("band ") }, "\(run.stdout)")
        #expect(lines.contains { $0.contains("(-30.0, 170.0)") && $0.contains("no band") }, "\(run.stdout)")
    }
}

/// One run of a built sample executable in the package root, writing into
/// a fresh temporary folder that is removed when the run is.
final class SampleRun {
    let directory: URL
    let status: Int32
    let stdout: String
    let stderr: String

    /// The package root: this file is Tests/HeatMapTests/SampleProgramTests.swift.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The built executable of sample `name` (it may not exist).
    static func executable(_ name: String) -> URL {
        packageRoot.appendingPathComponent(".build/debug/\(name)")
    }

    /// A trait that skips a test, saying why, when sample `name` has not been built.
    static func built(_ name: String) -> ConditionTrait {
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: executable(name).path),
            "skipped: \(name) is not built at \(executable(name).path); run `swift build` first")
    }

    /// Runs `name` with the arguments made for its output folder.
    init(_ name: String, arguments: (URL) -> [String]) throws {
        let executable = SampleRun.executable(name)
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("heatmap-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments(directory)
        process.currentDirectoryURL = SampleRun.packageRoot
        // Output to files, not pipes: a full pipe would stall the child.
        let outURL = directory.appendingPathComponent("stdout.txt"),
            errURL = directory.appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        status = process.terminationStatus
        stdout = (try? String(contentsOf: outURL, encoding: .utf8)) ?? ""
        stderr = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A file the sample wrote.
    func text(_ file: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
    }

    /// Every "http://" or "https://" in `page` other than XML namespace names.
    static func externalURLs(in page: String) -> [String] {
        var rest = page
        for namespace in ["http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink", "http://www.w3.org/1999/xhtml"]
        {
            rest = rest.replacingOccurrences(of: "\"\(namespace)\"", with: "")
        }
        var found: [String] = []
        for scheme in ["http://", "https://"] {
            var search = rest.startIndex..<rest.endIndex
            while let r = rest.range(of: scheme, range: search) {
                found.append(String(rest[r.lowerBound...].prefix(60)))
                search = r.upperBound..<rest.endIndex
            }
        }
        return found
    }
}

extension XMLElement {
    /// An attribute's value, looked up in `attributes`: on Linux,
    /// `attribute(forName:)` misses attributes of namespaced elements.
    func sampleAttribute(_ name: String) -> String? {
        attributes?.first { $0.name == name }?.stringValue
    }
}
