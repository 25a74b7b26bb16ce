import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// The built-in world basemap: Natural Earth 1:50m country rings (land
/// fill and borders) and coastlines, compiled into the library as text
/// so an installed tool needs no resource files.
///
/// The text is a run of numbers, each zig-zag folded (0, -1, 1, -2 … →
/// 0, 1, 2, 3 …) and written as five-bit digits, lowest first, each digit
/// plus 63 as one character, with 32 added to every digit but the last
/// (the encoded-polyline alphabet). A line is its point count, then for
/// each point the steps in longitude and latitude, in 1e-4 degree, from
/// the point before (the first point's from the previous line's last).
/// Characters outside 63…126 (line breaks) are skipped.
enum WorldBasemap {
    /// Country rings (each closed), decoded once. About 100,000 points.
    static let countries: [[LocationCoordinate2D]] = decode(encodedCountries)
    /// Coastline lines, decoded once. About 60,000 points.
    static let coastline: [[LocationCoordinate2D]] = decode(encodedCoastline)

    /// Decodes lines written as described above. O(characters).
    static func decode(_ text: String) -> [[LocationCoordinate2D]] {
        var numbers = NumberStream(text.utf8)
        var lines: [[LocationCoordinate2D]] = []
        var x = 0, y = 0
        while let folded = numbers.next() {
            let count = unfolded(folded)
            var line: [LocationCoordinate2D] = []
            line.reserveCapacity(count)
            for _ in 0..<count {
                guard let dx = numbers.next(), let dy = numbers.next() else { return lines }
                x += unfolded(dx)
                y += unfolded(dy)
                line.append(LocationCoordinate2D(latitude: Double(y) / 10_000, longitude: Double(x) / 10_000))
            }
            lines.append(line)
        }
        return lines
    }

    private static func unfolded(_ v: Int) -> Int { v & 1 == 0 ? v >> 1 : -((v + 1) >> 1) }

    /// Reads the five-bit-digit numbers of the text one by one.
    private struct NumberStream {
        package var bytes: String.UTF8View
        package var index: String.UTF8View.Index

        package init(_ bytes: String.UTF8View) {
            self.bytes = bytes
            index = bytes.startIndex
        }

        package mutating func next() -> Int? {
            var value = 0, shift = 0
            while index < bytes.endIndex {
                let c = Int(bytes[index])
                bytes.formIndex(after: &index)
                guard (63...126).contains(c) else { continue }
                let digit = c - 63
                value |= (digit & 0x1F) << shift
                shift += 5
                if digit < 0x20 { return value }
            }
            return nil
        }
    }
}
