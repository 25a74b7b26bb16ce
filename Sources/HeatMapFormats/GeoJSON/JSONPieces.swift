import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// JSON text too big for one buffer, in pieces that never outgrow their
/// buffer: a piece grows as an array does while it is small, and once its
/// buffer is ``pieceBytes`` a write that would not fit starts the next
/// piece. So a big text's buffers are full but for less than a block of
/// positions each, where doubling buffers are up to half empty.
struct JSONPieces {
    /// The buffer of a full piece.
    static let pieceBytes = 1 << 20

    private var done: [JSONText] = []
    private var text: JSONText
    /// Where ``append(positions:closing:decimals:)`` writes the blocks of
    /// rings too long for the stack: one buffer for the whole text, where a
    /// buffer a ring cost a `malloc` and a `free` for each.
    private var scratch: [UInt8] = []

    package init(reserving capacity: Int = 1 << 12) {
        text = JSONText(reserving: min(capacity, Self.pieceBytes))
    }

    /// Makes room for `count` more bytes: the buffer grows by doubling up
    /// to ``pieceBytes`` (never beyond: a doubled buffer could be half
    /// empty), and a write that would take the piece past that starts the
    /// next one.
    private mutating func room(_ count: Int) {
        let used = text.bytes.count, capacity = text.bytes.capacity
        guard used + count > capacity else { return }
        if used > 0, used + count > Self.pieceBytes {
            done.append(text)
            text = JSONText(reserving: max(Self.pieceBytes, count))
        } else {
            text.reserveCapacity(max(min(2 * capacity, Self.pieceBytes), used + count))
        }
    }

    package mutating func append(_ s: String) {
        room(s.utf8.count)
        text.append(s)
    }

    package mutating func append(byte: UInt8) {
        room(1)
        text.append(byte: byte)
    }

    /// As ``JSONText/append(positions:closing:decimals:)``, a block at a
    /// time, so a ring may run over into the next piece.
    package mutating func append(positions points: [FixedPoint], closing: Bool, decimals: Int) {
        guard decimals >= 0 else {
            // A coarse grid for huge planar coordinates (rare): the ring's
            // text made apart, then copied in.
            var one = JSONText(reserving: 64)
            one.append(positions: points, closing: closing, decimals: decimals)
            one.bytes.withUnsafeBufferPointer {
                room($0.count); text.append(bytes: $0)
            }
            return
        }
        append(byte: UInt8(ascii: "["))
        let capacity = JSONText.scratchCapacity(points, closing: closing)
        if capacity <= scratchStackBytes {
            JSONText.writePositions(points, closing: closing, decimals: decimals) { block in
                room(block.count)
                text.append(bytes: block)
            }
        } else {
            // Taken out while the blocks are written, so that writing them
            // into the text does not overlap an access to it.
            var buffer: [UInt8] = []
            swap(&buffer, &scratch)
            if buffer.count < capacity {
                // Written before it is read: no zeros needed.
                let largest = JSONText.largestScratchCapacity
                buffer = [UInt8](unsafeUninitializedCapacity: largest) { _, count in count = largest }
            }
            buffer.withUnsafeMutableBufferPointer { buffer in
                JSONText.writePositions(points, closing: closing, decimals: decimals, in: buffer) { block in
                    room(block.count)
                    text.append(bytes: block)
                }
            }
            swap(&buffer, &scratch)
        }
        append(byte: UInt8(ascii: "]"))
    }

    /// The pieces, in order (at least one).
    package consuming func finish() -> [JSONText] {
        done.append(text)
        return done
    }
}
