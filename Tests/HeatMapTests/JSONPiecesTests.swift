import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

/// Text in pieces (``JSONPieces``) is the text of one buffer
/// (``JSONText``), cut so that no piece outgrows its buffer.
@Suite struct JSONPiecesTests {
    private func ring(_ rng: inout SplitMix, count: Int) -> [FixedPoint] {
        (0..<count).map { _ in
            FixedPoint(
                x: Int64(rng.next() % 400_000_000) - 200_000_000, y: Int64(rng.next() % 200_000_000) - 100_000_000)
        }
    }

    @Test(arguments: [1, 2, 3]) func piecesJoinToTheTextOfOneBuffer(seed: UInt64) {
        var rng = SplitMix(seed: seed)
        // Rings from a few positions to several pieces' worth, at several decimals.
        let counts = [3, 17, 1000, 1023, 1024, 1025, 40_000, 150_000, 5, 90_000]
        var one = JSONText(reserving: 16)
        var pieces = JSONPieces()
        for (k, count) in counts.enumerated() {
            let points = ring(&rng, count: count), decimals = [0, 3, 6, -2][k % 4]
            one.append(k > 0 ? ",[" : "[")
            pieces.append(k > 0 ? ",[" : "[")
            one.append(positions: points, closing: k % 2 == 0, decimals: decimals)
            pieces.append(positions: points, closing: k % 2 == 0, decimals: decimals)
            one.append(byte: UInt8(ascii: "]"))
            pieces.append(byte: UInt8(ascii: "]"))
        }
        let made = pieces.finish()
        #expect(made.flatMap(\.bytes) == one.bytes)
        #expect(made.count > 3)
        for (k, piece) in made.enumerated() {
            // Never grown past a piece (but for a coarse-grid ring copied in
            // whole, which gets a piece of its size), and full but for less
            // than a block.
            #expect(piece.bytes.capacity <= max(JSONPieces.pieceBytes, piece.bytes.count) + 4096)
            if k + 1 < made.count { #expect(piece.bytes.capacity - piece.bytes.count < JSONText.blockBytes + 4096) }
        }
    }

    @Test func aSmallTextStaysSmall() {
        var pieces = JSONPieces()
        pieces.append("{\"type\":\"Polygon\",\"coordinates\":[")
        pieces.append(
            positions: [FixedPoint(x: 0, y: 0), FixedPoint(x: 10, y: 0), FixedPoint(x: 0, y: 10)],
            closing: true, decimals: 1)
        pieces.append("]}")
        let made = pieces.finish()
        #expect(made.count == 1)
        #expect(made[0].string == "{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[1,0],[0,1],[0,0]]]}")
        #expect(made[0].bytes.capacity < 1 << 13)
    }
}
