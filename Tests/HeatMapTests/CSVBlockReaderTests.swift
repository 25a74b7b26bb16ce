import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// The parallel CSV reader (``CSVBlockReader``) against the serial one:
/// the same points in the same order, the same rows and rejections, the
/// same first error, whatever the block size — with line ends, blank
/// lines, bad rows and quotes that send blocks back to the serial reader.
@Suite struct CSVBlockReaderTests {
    /// What reading a file gave: the points, rows seen, rejections, or the error.
    struct Outcome: Equatable, CustomStringConvertible {
        var points: [InputPoint] = []
        var rows = 0
        var rejections = InputRejections()
        var error: InputError?
        /// Blocks the quick parser took, and blocks the serial reader read.
        var quickBlocks = 0, serialBlocks = 0

        var description: String {
            if let error { return "error \(error)" }
            return "\(points.count) points, \(rows) rows, \(rejections.count) rejected"
        }

        static func == (a: Outcome, b: Outcome) -> Bool {
            // After an error, which points were handed out first is not compared.
            if a.error != nil || b.error != nil { return a.error == b.error }
            return a.points == b.points && a.rows == b.rows && a.rejections == b.rejections
        }
    }

    /// The serial reader's outcome.
    static func serial(_ path: String, _ options: PointReaderOptions) -> Outcome {
        var out = Outcome()
        do {
            let reader = try PointReader(path: path, options: options)
            while let p = try reader.next() { out.points.append(p) }
            out.rows = reader.rowsRead
            out.rejections = reader.rejections
        } catch {
            out.error = error as? InputError
        }
        return out
    }

    /// The block reader's outcome, with blocks of `blockSize` bytes.
    static func blocks(_ path: String, _ options: PointReaderOptions, blockSize: Int) -> Outcome {
        var out = Outcome()
        do {
            let reader = try PointReader(path: path, options: options)
            let blocks = CSVBlockReader(
                path: path, reader: try #require(reader.csvReader),
                skipInvalid: options.skipInvalid, blockSize: blockSize)
            try blocks.forEachRun(control: .none) { run in
                for i in 0..<run.count { out.points.append(run[i]) }
            }
            out.rows = blocks.rowsRead
            out.rejections = blocks.rejections
            out.quickBlocks = blocks.quickBlocks
            out.serialBlocks = blocks.serialBlocks
        } catch {
            out.error = error as? InputError
        }
        return out
    }

    /// Rows of plain numbers x, y, w in varied spellings.
    static func rows(_ count: Int, seed: UInt64) -> [String] {
        var generator = SplitMix(seed: seed)
        return (0..<count).map { i in
            let x = Double.random(in: -1000...1000, using: &generator)
            let y = Double.random(in: -90...90, using: &generator)
            let w = Double.random(in: 0...5, using: &generator)
            switch i % 7 {
            case 0: return "\(x),\(y),\(w)"
            case 1: return String(format: "%.6f,%.3f,%.2f", x, y, w)
            case 2: return String(format: "%.3e,%.0f,%g", x, y, w)  // exponents: NumberParser's path
            case 3: return String(format: " %.4f ,%.4f,  %.1f", x, y, w)  // spaces: likewise
            case 4: return String(format: "%+.2f,-0.%06d,0", x, i, w)
            case 5: return "\(Int(x)),\(Int(y)).,.5"
            default: return String(format: "%.19f,%.17f,%.1f", x / 1000, y / 100, w)  // long mantissas
            }
        }
    }

    static let blockSizes = [1, 17, 64, 200, 1 << 20]

    /// Checks that every block size gives the serial outcome for `text`;
    /// returns that outcome, and the block reader's with 200-byte blocks.
    @discardableResult
    static func expectSame(
        _ text: String,
        options: PointReaderOptions = PointReaderOptions(
            columns: PointColumns(weight: "w"), geographic: false),
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (serial: Outcome, blocks: Outcome) {
        let folder = try ScratchFolder()
        let path = try folder.write("t.csv", text)
        let expected = serial(path, options)
        var sample = Outcome()
        for size in blockSizes {
            let got = blocks(path, options, blockSize: size)
            #expect(got == expected, "block size \(size)", sourceLocation: sourceLocation)
            if size == 200 { sample = got }
        }
        return (expected, sample)
    }

    @Test func plainRowsAreTheSerialReadersPointsBitForBit() throws {
        let body = Self.rows(400, seed: 1)
        let plain = try Self.expectSame("x,y,w\n" + body.joined(separator: "\n") + "\n")
        #expect(plain.serial.points.count == 400)
        // Every block the quick way (short blocks hold one or two rows).
        #expect(plain.blocks.quickBlocks > 50 && plain.blocks.serialBlocks == 0)
        // CRLF, and a last row without a line end.
        try Self.expectSame("x,y,w\r\n" + body.joined(separator: "\r\n"))
        try Self.expectSame("x,y,w\n" + body.joined(separator: "\n"))
        // A byte-order mark and a header ended by CRLF.
        try Self.expectSame("\u{FEFF}x,y,w\r\n" + body.joined(separator: "\n") + "\n")
    }

    @Test func numbersOfEveryLengthParseAsNumberParserParsesThem() throws {
        // Digit runs across the eight-byte steps, leading zeros, and more
        // than 19 digits (NumberParser's own path).
        var generator = SplitMix(seed: 7)
        func digits(_ count: Int) -> String {
            String((0..<count).map { _ in Character(String(generator.next() % 10)) })
        }
        var rows: [String] = []
        for whole in 0...21 {
            for fraction in [0, 1, 3, 7, 8, 9, 16, 17, 20] {
                let x = (whole == 0 ? "" : digits(whole)) + (fraction == 0 ? "" : "." + digits(fraction))
                let y = "-" + (whole == 0 ? "0" : "00" + digits(whole)) + "." + digits(fraction)
                rows.append("\(x.isEmpty ? "0" : x),\(y),\(digits(1))")
            }
        }
        let result = try Self.expectSame("x,y,w\n" + rows.joined(separator: "\n"))
        #expect(result.serial.points.count == rows.count)
        #expect(result.blocks.serialBlocks == 0)
    }

    @Test func blankLinesAndOddLineEndsKeepLineNumbers() throws {
        var body = Self.rows(200, seed: 2)
        for k in stride(from: 5, to: body.count, by: 23) { body[k] += "\n\n" }
        for k in stride(from: 11, to: body.count, by: 31) { body[k] += "\r\n\r\n" }
        try Self.expectSame("x,y,w\n\n" + body.joined(separator: "\n") + "\n\n")
        // A lone CR ends a line too: those blocks are the serial reader's.
        var mixed = body
        for k in stride(from: 7, to: mixed.count, by: 41) { mixed[k] += "\r" }
        try Self.expectSame("x,y,w\n" + mixed.joined(separator: "\n") + "\n")
        // Then a bad row after them must name the right line.
        try Self.expectSame("x,y,w\n" + mixed.joined(separator: "\n") + "\n1,2,oops\n3,4,5\n")
    }

    @Test(arguments: [false, true])
    func badRowsInTheMiddleAreTheSerialReadersErrors(skipInvalid: Bool) throws {
        var body = Self.rows(300, seed: 3)
        body[150] = "12,NaN,1"
        body[151] = "12,13,-1"
        body[200] = "12,13"
        body[201] = "12,13,4,5"  // more fields than the header
        body[202] = "12,13,4,   "  // an empty extra field: accepted
        body[250] = "12,,4"
        let options = PointReaderOptions(
            columns: PointColumns(weight: "w"), geographic: false, skipInvalid: skipInvalid)
        let lf = try Self.expectSame("x,y,w\n" + body.joined(separator: "\n") + "\n", options: options)
        try Self.expectSame("x,y,w\r\n" + body.joined(separator: "\r\n"), options: options)
        if skipInvalid {
            #expect(lf.serial.rejections.count == 5)
            // Only the blocks holding the bad rows go to the serial reader.
            #expect(lf.blocks.serialBlocks >= 1 && lf.blocks.serialBlocks <= 6)
            #expect(lf.blocks.quickBlocks > 50)
        } else {
            #expect(lf.serial.error?.line == 152)
        }
        // Geographic ranges, checked as the serial reader's quick path does.
        let geographic = PointReaderOptions(
            columns: PointColumns(latitude: "y", longitude: "x", weight: "w"),
            skipInvalid: skipInvalid)
        try Self.expectSame("x,y,w\n" + body.joined(separator: "\n") + "\n", options: geographic)
    }

    @Test(arguments: [false, true])
    func quotedFieldsGoToTheSerialReader(skipInvalid: Bool) throws {
        var body = Self.rows(300, seed: 4)
        body[20] = "\"1.5\",2,3"
        // A quoted field across lines, read across block boundaries.
        body[100] = "1,2,3,\"a note\n\n\nover \"\"lines\"\"\n\""
        body[101] = "4,\"5\",6,\"a\r\nb\""
        body[180] = "8,\"9\",10,\"a note, with a delimiter\""
        let options = PointReaderOptions(
            columns: PointColumns(weight: "w"), geographic: false, skipInvalid: skipInvalid)
        let quoted = try Self.expectSame("x,y,w,note\n" + body.joined(separator: "\n") + "\n", options: options)
        #expect(quoted.serial.error == nil && quoted.serial.points.count == 300)
        #expect(quoted.blocks.serialBlocks >= 3 && quoted.blocks.quickBlocks > 50)
        // An unterminated quote near the end.
        try Self.expectSame(
            "x,y,w\n" + body.prefix(250).joined(separator: "\n") + "\n1,2,\"3\n4,5,6\n", options: options)
    }

    @Test func otherDialectsAndColumns() throws {
        var generator = SplitMix(seed: 5)
        // Semicolons with decimal commas, a value column, unread columns between.
        let rows = (0..<250).map { i in
            let a = Double.random(in: -50...50, using: &generator), b = Double.random(in: 0...9, using: &generator)
            return String(format: "name %d;%.3f;%.2f;%d;%.1f", i, a, b, i, b).replacingOccurrences(of: ".", with: ",")
        }
        let options = PointReaderOptions(
            columns: PointColumns(latitude: "b", longitude: "a", weight: "w", value: "v"),
            geographic: false)
        try Self.expectSame("label;a;b;w;v\n" + rows.joined(separator: "\n") + "\n", options: options)
        // One column for the weight and the value: both read from it.
        let shared = try Self.expectSame(
            "x,y,c\n" + (0..<300).map { "\($0 % 17),\($0 % 13),\($0 % 3)" }.joined(separator: "\n") + "\n",
            options: PointReaderOptions(columns: PointColumns(weight: "c", value: "c"), geographic: false))
        #expect(shared.serial.points.count == 300)
        #expect(shared.serial.points.allSatisfy { $0.weight == $0.value })
        #expect(shared.serial.points.contains { $0.weight == 0 })
        // A NUL byte: binary data, on its line.
        try Self.expectSame("x,y,w\n1,2,3\n4,5,6\n7,8\u{0},9\n")
        // A header only, and a header without its line end.
        try Self.expectSame("x,y,w\n")
        try Self.expectSame("x,y,w")
    }

    @Test func streamedPointsReadAFileOnceAndReplayItsSpool() throws {
        let body = Self.rows(5_000, seed: 6)
        let folder = try ScratchFolder()
        let path = try folder.write("p.csv", "x,y,w\n" + body.joined(separator: "\n") + "\n1,2,x\n")
        let options = PointReaderOptions(columns: PointColumns(weight: "w"), geographic: false, skipInvalid: true)
        let expected = Self.serial(path, options)
        for replay in [StreamedPoints.Replay.spool, .reparse] {
            let streamed = try StreamedPoints.read(path: path, options: options, replay: replay)
            #expect(streamed.count == expected.points.count)
            #expect(streamed.rowsRead == expected.rows)
            #expect(streamed.rejections == expected.rejections)
            var again: [InputPoint] = []
            try streamed.forEachBatch(size: 999) { batch in
                #expect(batch.count <= 999)
                for i in 0..<batch.count { again.append(batch[i]) }
            }
            #expect(again == expected.points)
        }
        #expect(try StreamedPoints.read(path: path, options: options).replay == .spool)
    }

    @Test func valuesAndRadiiTravelTogetherThroughBlocksAndTheSpool() throws {
        var generator = SplitMix(seed: 8)
        let rows = (0..<3_000).map { i in
            let x = Double.random(in: -50...50, using: &generator), y = Double.random(in: 0...9, using: &generator)
            return String(format: "%.3f,%.3f,%.2f,%.1f", x, y, Double(i % 7) - 3, 0.5 + Double(i % 11))
        }
        var columns = PointColumns(value: "v")
        columns.radius = "r"
        let options = PointReaderOptions(columns: columns, geographic: false)
        let text = "x,y,v,r\n" + rows.joined(separator: "\n") + "\n"
        try Self.expectSame(text, options: options)
        let folder = try ScratchFolder()
        let path = try folder.write("p.csv", text)
        let expected = Self.serial(path, options)
        #expect(expected.points.allSatisfy { $0.radius > 0 && $0.value.isFinite })
        for replay in [StreamedPoints.Replay.spool, .reparse] {
            let streamed = try StreamedPoints.read(path: path, options: options, replay: replay)
            #expect(streamed.carriesRadius)
            var again: [InputPoint] = []
            try streamed.forEachBatch(size: 700) { batch in
                for i in 0..<batch.count { again.append(batch[i]) }
            }
            #expect(again == expected.points)
        }
    }

    /// A batch stores a value, time or radius column only from the first
    /// point that brings one, and reads NaN for the points before it and
    /// for a column no point brought.
    @Test func aBatchStoresOptionalColumnsFromTheirFirstEntry() {
        var batch = PointBatch(capacity: 4)
        for i in 0..<5 {
            var p = InputPoint(latitude: Double(i), longitude: -Double(i), weight: 2, value: i >= 2 ? Double(i) : .nan)
            if i == 4 { p.radius = 7 }
            batch.append(p)
        }
        #expect(batch.count == 5)
        #expect(batch.value.count == 5 && batch.time.count == 5 && batch.radius.count == 5)
        #expect(batch.value[0].isNaN && batch.value[1].isNaN && batch.value[2...] == [2, 3, 4])
        #expect(batch.time.allSatisfy(\.isNaN) && (0..<5).allSatisfy { batch.time(at: $0).isNaN })
        #expect(batch.radius[..<4].allSatisfy(\.isNaN) && batch.radius[4] == 7 && batch.radius(at: 4) == 7)
        #expect(batch[3] == InputPoint(latitude: 3, longitude: -3, weight: 2, value: 3))
        batch.removeAll()
        batch.append(InputPoint(latitude: 1, longitude: 1))
        #expect(batch.count == 1 && batch.value(at: 0).isNaN && batch.radius(at: 0).isNaN)
        #expect(batch.value.count == 1 && batch.value[0].isNaN)
    }
}
