import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// The streaming CSV tokenizer and point reader (docs/formats.md, docs/faults.md): dialects,
/// quoting, line ends, byte-order marks, and errors that name file, line
/// and column.
@Suite struct InputCSVTests {
    /// Every record of `text` as arrays of field strings, with their lines.
    static func records(_ bytes: [UInt8], delimiter: UInt8? = nil) throws -> [(line: Int, fields: [String])] {
        let folder = try ScratchFolder()
        let path = try folder.write("t.csv", bytes)
        let tokenizer = CSVTokenizer(source: try ByteSource(path: path), delimiter: delimiter)
        var out: [(Int, [String])] = []
        while try tokenizer.next() {
            out.append((tokenizer.line, (0..<tokenizer.fieldCount).map(tokenizer.string)))
        }
        return out
    }

    static func records(_ text: String) throws -> [(line: Int, fields: [String])] {
        try records(Array(text.utf8))
    }

    /// The points of a CSV text, read with `options`.
    static func points(_ text: String, options: PointReaderOptions = PointReaderOptions()) throws -> [InputPoint] {
        let folder = try ScratchFolder()
        let path = try folder.write("t.csv", text)
        let reader = try PointReader(path: path, options: options)
        var out: [InputPoint] = []
        while let p = try reader.next() { out.append(p) }
        return out
    }

    /// The error reading a CSV text gives, as "LINE:COLUMN: message".
    static func error(_ text: String, options: PointReaderOptions = PointReaderOptions()) throws -> String {
        do {
            _ = try points(text, options: options)
        } catch let e as InputError {
            return "\(e.line):\(e.column): \(e.message)"
        }
        Issue.record("no error for \(text.debugDescription)")
        return ""
    }

    @Test func quotedFieldsKeepDelimitersDoubledQuotesAndNewlines() throws {
        let r = try Self.records("name,lat,lon\n\"Smith, J\",1,2\n\"say \"\"hi\"\"\",3,4\n\"two\nlines\",5,6\n7,8,9\n")
        #expect(
            r.map(\.fields) == [
                ["name", "lat", "lon"], ["Smith, J", "1", "2"], ["say \"hi\"", "3", "4"],
                ["two\nlines", "5", "6"], ["7", "8", "9"]
            ])
        // A record's line is where it starts; the embedded newline moves the next one down.
        #expect(r.map(\.line) == [1, 2, 3, 4, 6])
    }

    @Test func crlfLineEndsAndALoneCR() throws {
        let r = try Self.records("a,b\r\n1,2\r\n\r\n3,4\r5,6")
        #expect(r.map(\.fields) == [["a", "b"], ["1", "2"], ["3", "4"], ["5", "6"]])
        #expect(r.map(\.line) == [1, 2, 4, 5])
        let quoted = try Self.records("a,b\r\n\"x\r\ny\",2\r\n3,4\r\n")
        #expect(quoted.map(\.fields) == [["a", "b"], ["x\r\ny", "2"], ["3", "4"]])
        #expect(quoted.map(\.line) == [1, 2, 4])
    }

    @Test func byteOrderMarkIsSkipped() throws {
        let r = try Self.records([0xEF, 0xBB, 0xBF] + Array("lat,lon\n1,2\n".utf8))
        #expect(r[0].fields == ["lat", "lon"])
        let p = try Self.points("\u{FEFF}lat,lon\n-41.3,174.8\n")
        #expect(p == [InputPoint(latitude: -41.3, longitude: 174.8)])
    }

    @Test func delimiterIsSniffedFromTheHeader() throws {
        #expect(try Self.records("a;b;c\n1;2,5;3\n").map(\.fields) == [["a", "b", "c"], ["1", "2,5", "3"]])
        #expect(try Self.records("a\tb\n1\t2\n").map(\.fields) == [["a", "b"], ["1", "2"]])
        // Delimiters inside quotes do not count.
        #expect(try Self.records("\"x;y;z\",b\n1,2\n").map(\.fields) == [["x;y;z", "b"], ["1", "2"]])
        #expect(try Self.records("only\n1\n").map(\.fields) == [["only"], ["1"]])
    }

    /// Blank lines before the header are skipped when reading, so the
    /// delimiter comes from the header after them, not from the empty first line.
    @Test func delimiterIsSniffedFromTheHeaderAfterBlankLines() throws {
        #expect(try Self.records("\n\r\nlat;lon\n1,5;2\n").map(\.fields) == [["lat", "lon"], ["1,5", "2"]])
        #expect(try Self.records("\n\nlat\tlon\n1\t2\n").map(\.fields) == [["lat", "lon"], ["1", "2"]])
        let p = try Self.points("\u{FEFF}\n\nlat;lon\n-41,3;174,8\n")
        #expect(p == [InputPoint(latitude: -41.3, longitude: 174.8)])
    }

    @Test func semicolonFilesMayUseADecimalComma() throws {
        let p = try Self.points(
            "lat;lon;w\n-41,3;174,8;2,5\n", options: PointReaderOptions(columns: PointColumns(weight: "w")))
        #expect(p == [InputPoint(latitude: -41.3, longitude: 174.8, weight: 2.5)])
    }

    @Test func tabSeparatedWithSpacesAroundValues() throws {
        let p = try Self.points("Latitude\tLongitude\n  -41.5 \t 174.25\n")
        #expect(p == [InputPoint(latitude: -41.5, longitude: 174.25)])
    }

    @Test func blankLinesAreSkippedButCounted() throws {
        let r = try Self.records("a,b\n\n1,2\n\n\n3,4\n")
        #expect(r.map(\.line) == [1, 3, 6])
        #expect(try Self.error("lat,lon\n\n1,2\n\nx,2\n") == "5:lat: latitude is not a number: \"x\"")
    }

    @Test func emptyAndQuotedEmptyFields() throws {
        let r = try Self.records("a,b,c\n,,\n\"\",x,\n")
        #expect(r.map(\.fields) == [["a", "b", "c"], ["", "", ""], ["", "x", ""]])
    }

    @Test func lastRecordWithoutANewline() throws {
        #expect(try Self.records("a,b\n1,2").map(\.fields) == [["a", "b"], ["1", "2"]])
    }

    @Test func recordsAcrossChunkBoundariesKeepTheirLines() throws {
        // Rows of varying length, CRLF ends and quoted newlines, so that
        // every kind of boundary falls between two 256 KiB chunks somewhere.
        var text = "lat,lon,note\r\n"
        var expected: [InputPoint] = []
        var k = 0
        var line = 2
        while text.utf8.count < 3 * ByteSource.chunkSize {
            let lat = Double(k % 180) - 89.5, lon = Double(k % 359) - 179.25
            let note = k % 7 == 0 ? "\"a\r\nb, \"\"c\"\"\"" : String(repeating: "x", count: k % 13)
            text += "\(lat),\(lon),\(note)\r\n"
            expected.append(InputPoint(latitude: lat, longitude: lon))
            line += k % 7 == 0 ? 2 : 1
            k += 1
        }
        text += "1,bad,z\r\n"
        let folder = try ScratchFolder()
        let path = try folder.write("big.csv", text)
        let reader = try PointReader(path: path, options: PointReaderOptions())
        var got: [InputPoint] = []
        do {
            while let p = try reader.next() { got.append(p) }
            Issue.record("the bad last row was not reported")
        } catch let e as InputError {
            #expect(e.line == line)
            #expect(e.column == "lon")
        }
        #expect(got == expected)
    }

    @Test func columnDefaultsAreCaseInsensitiveInOrder() throws {
        #expect(try Self.points("X,Y,LAT,Lng\n1,2,3,4\n") == [InputPoint(latitude: 3, longitude: 4)])
        #expect(try Self.points("longitude,latitude\n10,20\n") == [InputPoint(latitude: 20, longitude: 10)])
        // Planar data: x and y.
        let planar = PointReaderOptions(geographic: false)
        #expect(try Self.points("case,x,y\n1,500,-3\n", options: planar) == [InputPoint(latitude: -3, longitude: 500)])
    }

    @Test func explicitColumnsWeightAndValue() throws {
        let options = PointReaderOptions(
            columns: PointColumns(latitude: "A", longitude: "b", weight: "w", value: "price"))
        let p = try Self.points("a,b,w,price\n1,2,3,400\n", options: options)
        #expect(p.count == 1)
        #expect(p[0].latitude == 1 && p[0].longitude == 2 && p[0].weight == 3 && p[0].value == 400)
    }

    @Test func errorsNameLineColumnAndProblem() throws {
        #expect(try Self.error("lat,lon\n1,2\nabc,3\n") == "3:lat: latitude is not a number: \"abc\"")
        #expect(try Self.error("lat,lon\n1,2\nnan,3\n") == "3:lat: latitude is NaN (\"nan\")")
        #expect(try Self.error("lat,lon\n1,-Infinity\n") == "2:lon: longitude is not finite (\"-Infinity\")")
        #expect(try Self.error("lat,lon\n95,2\n") == "2:lat: latitude 95 is outside [-90, 90]")
        #expect(try Self.error("lat,lon\n5,360\n") == "2:lon: longitude 360 is outside [-180, 360)")
        #expect(
            try Self.error("lat,lon,w\n5,3,-0.5\n", options: PointReaderOptions(columns: PointColumns(weight: "w")))
                == "2:w: weight -0.5 is negative")
        #expect(try Self.error("lat,lon\n5\n") == "2:lon: short row: 1 field but the header has 2; no value for 'lon'")
        #expect(try Self.error("lat,lon\n5,6,7\n").hasPrefix("2:3: row has 3 fields but the header has 2"))
        #expect(try Self.error("lat,lon\n,6\n") == "2:lat: latitude is empty")
        #expect(try Self.error("lat,lon\nNA,6\n") == "2:lat: latitude is missing (\"NA\")")
        #expect(
            try Self.error("lat,lon\n1,2\n\"3,4\n5,6\n")
                == "3:lat: unterminated quoted field: the quote opened here never closes")
        #expect(try Self.error("a,b\n1,2\n").hasPrefix("1:lat: no latitude column: looked for lat, latitude, y"))
        #expect(try Self.error("").hasPrefix("1:1: empty file"))
        #expect(try Self.error("lat,lon\n1,\u{0}2\n").hasPrefix("2:lon: binary data"))
        // A trailing delimiter (an empty extra field) is not an error.
        #expect(try Self.points("lat,lon\n1,2,\n") == [InputPoint(latitude: 1, longitude: 2)])
    }

    @Test func skipInvalidCountsRowsByReason() throws {
        let folder = try ScratchFolder()
        let path = try folder.write("t.csv", "lat,lon\n1,2\n95,3\nx,4\n96,5\n6,7\n")
        let reader = try PointReader(path: path, options: PointReaderOptions(skipInvalid: true))
        var got: [InputPoint] = []
        while let p = try reader.next() { got.append(p) }
        #expect(got.map(\.latitude) == [1, 6])
        #expect(reader.rowsRead == 5)
        let r = reader.rejections
        #expect(r.count == 3)
        #expect(r.byReason == ["latitude outside [-90, 90]": 2, "latitude is not a number": 1])
        #expect(r.tallies.first?.first.line == 3)
    }

    @Test func headerOnlyGivesNoPoints() throws {
        #expect(try Self.points("lat,lon\n").isEmpty)
        #expect(try Self.points("lat,lon").isEmpty)
    }

    @Test func numbersParseExactlyFromBytes() {
        func parse(_ s: String) -> ParsedNumber {
            var bytes = Array(s.utf8)
            return bytes.withUnsafeMutableBufferPointer { NumberParser.parse(UnsafeBufferPointer($0)) }
        }
        // The fast path and strtod agree with Swift's own correctly rounded parser.
        for text in [
            "0", "-0.5", "174.7633", "1e3", "2.5E-3", ".5", "5.", "+12", "123456789012345678901234",
            "0.1", "-41.286461", "1.7976931348623157e308", "4.9e-324", "000012.50", "3.14159265358979323846"
        ] {
            #expect(parse(text) == .number(Double(text)!), "\(text)")
        }
        #expect(parse("  7 ") == .number(7))
        #expect(parse("nan") == .nan)
        #expect(parse("-inf") == .infinite(-.infinity))
        #expect(parse("1e400") == .infinite(.infinity))
        #expect(parse("") == .empty)
        #expect(parse("   ") == .empty)
        #expect(parse("NA") == .missing)
        for bad in ["abc", "1,5", "0x10", "1e", "--1", "1.2.3", "e5", ".", "12abc"] {
            #expect(parse(bad) == .invalid, "\(bad)")
        }
    }
}
