import Foundation
import Synchronization
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// A sink that can go back (a file, memory) gets the export in one pass,
/// its bbox filled in last; one that cannot (a pipe) gets it in two passes,
/// the bbox known first. Both write the same bytes — with repairs of the
/// rounding or without, empty or not.
@Suite struct GeoJSONOnePassTests {
    /// The collector keeps its bytes in chunks: writes, overwrites and
    /// truncations across chunk edges give what one array would.
    @Test func collectorChunksActAsOneArray() {
        var generator = SplitMix(seed: 5)
        for chunkSize in [1, 3, 7, 64] {
            let collector = ByteCollector(chunkSize: chunkSize)
            var reference: [UInt8] = []
            for step in 0..<300 {
                let n = Int(generator.next() % 20)
                let bytes = (0..<n).map { _ in UInt8(ascii: "a") + UInt8(generator.next() % 26) }
                switch step % 5 {
                case 3 where !reference.isEmpty:
                    let at = Int(generator.next() % UInt64(reference.count))
                    let part = Array(bytes.prefix(reference.count - at))
                    part.withUnsafeBytes { collector.overwrite(at: at, with: $0) }
                    reference.replaceSubrange(at..<(at + part.count), with: part)
                case 4 where !reference.isEmpty:
                    let to = Int(generator.next() % UInt64(reference.count + 1))
                    collector.truncate(to: to)
                    reference.removeSubrange(to...)
                default:
                    bytes.withUnsafeBytes { try? collector.write($0) }
                    reference.append(contentsOf: bytes)
                }
                #expect(collector.offset == reference.count)
            }
            #expect(collector.takeString() == String(decoding: reference, as: UTF8.self))
            #expect(collector.offset == 0)
        }
    }

    /// Keeps what it is given and cannot go back, as a pipe.
    final class PipeSink: ByteSink {
        var bytes: [UInt8] = []
        func write(_ chunk: UnsafeRawBufferPointer) throws { bytes.append(contentsOf: chunk) }
        var text: String { String(decoding: bytes, as: UTF8.self) }
    }

    static let planar = PlaneProjection(kind: .planar)

    /// Wiggly rings closer together than the rounding step at low
    /// precision (repairs needed), and far apart at high precision (none).
    static func bands(seed: UInt64) -> ContourSet {
        var rng = SplitMix(seed: seed)
        func wiggly(_ r: Double, _ n: Int, cx: Double) -> [PlanePoint] {
            (0..<n).map { k in
                let t = 2 * Double.pi * Double(k) / Double(n)
                let rr = r * (1 + 0.02 * (rng.unit() - 0.5))
                return PlanePoint(x: cx + rr * cos(t), y: rr * sin(t))
            }
        }
        let lower = [
            PlanePolygon(exterior: wiggly(1, 250, cx: 0), holes: [Array(wiggly(0.95, 250, cx: 0).reversed())]),
            PlanePolygon(exterior: wiggly(0.5, 90, cx: 3))
        ]
        let upper = [PlanePolygon(exterior: wiggly(0.95, 250, cx: 0))]
        return ContourSet(thresholds: [1, 2], levels: [lower, upper], bands: [lower, upper], isolines: [[], []])
    }

    @Test(arguments: [0, 1, 2, 3, 9])
    func oneAndTwoPassesWriteTheSameBytes(precision: Int) throws {
        for seed: UInt64 in [5, 6, 7] {
            let set = Self.bands(seed: seed)
            for grouping in GeoJSONFeatureGrouping.allCases {
                let options = GeoJSONOptions(precision: precision, grouping: grouping)
                let onePass = try GeoJSONExport.contours(set, projection: Self.planar, units: "u", options: options)
                let pipe = PipeSink()
                try GeoJSONExport.write(set, projection: Self.planar, units: "u", options: options, to: pipe)
                #expect(onePass == pipe.text, "precision \(precision), seed \(seed), \(grouping)")
                #expect(try GeoJSONRead.allProblems(onePass, geographic: false).isEmpty)
                let header = String(onePass.prefix { $0 != "\n" })
                #expect(
                    header.range(
                        of: #"^\{"type":"FeatureCollection","bbox":\[[-0-9.,]+\] *,"features":\[$"#,
                        options: .regularExpression) != nil, "the bbox is padded to its slot: \(header)")
            }
        }
    }

    /// Repairs in a later band only: the bands written before it stay as
    /// written and the rest is written again, to the two passes' bytes.
    @Test func aRepairLaterKeepsTheBandsBeforeIt() throws {
        var rng = SplitMix(seed: 9)
        func square(_ x: Double, _ y: Double, _ r: Double) -> [PlanePoint] {
            [
                PlanePoint(x: x - r, y: y - r), PlanePoint(x: x + r, y: y - r), PlanePoint(x: x + r, y: y + r),
                PlanePoint(x: x - r, y: y + r)
            ]
        }
        func wiggly(_ r: Double, _ n: Int, cx: Double) -> [PlanePoint] {
            (0..<n).map { k in
                let t = 2 * Double.pi * Double(k) / Double(n)
                let rr = r * (1 + 0.02 * (rng.unit() - 0.5))
                return PlanePoint(x: cx + rr * cos(t), y: rr * sin(t))
            }
        }
        var bands: [[PlanePolygon]] = (0..<6).map { l in [PlanePolygon(exterior: square(10 * Double(l), 20, 2))] }
        bands[4] = [
            PlanePolygon(exterior: wiggly(1, 200, cx: 40), holes: [Array(wiggly(0.95, 200, cx: 40).reversed())])
        ]
        bands[2] = []  // a level without geometry on the way
        let set = ContourSet(
            thresholds: (0..<6).map(Double.init), levels: bands, bands: bands,
            isolines: Array(repeating: [], count: 6))
        for grouping in GeoJSONFeatureGrouping.allCases {
            let options = GeoJSONOptions(precision: 1, grouping: grouping)
            let onePass = try GeoJSONExport.contours(set, projection: Self.planar, units: "u", options: options)
            let pipe = PipeSink()
            try GeoJSONExport.write(set, projection: Self.planar, units: "u", options: options, to: pipe)
            #expect(onePass == pipe.text, "\(grouping)")
            #expect(onePass.range(of: #"[0-9]\.[0-9]{2,}"#, options: .regularExpression) != nil, "a repair was made")
        }
    }

    /// The export stage's progress never goes back, with repairs (precision
    /// 1) and without (9), into memory (one pass) and into a pipe (two,
    /// the writing reporting its quarter).
    @Test(arguments: [1, 9])
    func exportProgressOnlyGoesForward(precision: Int) throws {
        let set = Self.bands(seed: 5)
        for toPipe in [false, true] {
            let fractions = Mutex<[Double]>([])
            let control = ComputeControl(cancellation: nil) { p in
                if p.stage == .export { fractions.withLock { $0.append(p.fraction) } }
            }
            let options = GeoJSONOptions(precision: precision)
            let sink: ByteSink = toPipe ? PipeSink() : ByteCollector()
            try GeoJSONExport.write(
                set, projection: Self.planar, units: "u", options: options, to: sink,
                control: control)
            let seen = fractions.withLock { $0 }
            #expect(seen.last == 1)
            #expect(
                zip(seen, seen.dropFirst()).allSatisfy { $0 <= $1 }, "precision \(precision), pipe \(toPipe): \(seen)")
            if toPipe {
                // The writing after the planning reports as it goes.
                #expect(seen.contains { $0 > 0.75 && $0 < 1 }, "\(seen)")
            }
        }
    }

    @Test func lowPrecisionNeedsRepairsAndHighDoesNot() throws {
        let set = Self.bands(seed: 5)
        let low = try GeoJSONExport.contours(
            set, projection: Self.planar, units: "u",
            options: GeoJSONOptions(precision: 1))
        let high = try GeoJSONExport.contours(
            set, projection: Self.planar, units: "u",
            options: GeoJSONOptions(precision: 9))
        // A repair gives some positions more decimals than asked for.
        #expect(low.range(of: #"[0-9]\.[0-9]{2,}"#, options: .regularExpression) != nil)
        #expect(high.range(of: #"[0-9]\.[0-9]{10,}"#, options: .regularExpression) == nil, "\(high.prefix(200))")
    }

    @Test func anEmptyExportHasNoBBoxAndNoPadding() throws {
        let empty = ContourSet(thresholds: [1], levels: [[]], bands: [[]], isolines: [[]])
        let text = try GeoJSONExport.contours(empty, projection: Self.planar, units: "u")
        #expect(text == "{\"type\":\"FeatureCollection\",\"features\":[\n]}\n")
    }
}
