import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// JSON text pieces written byte by byte: numbers without exponents,
/// fixed-point decimals, escaped strings.
package struct JSONText {
    /// The bytes written so far (UTF-8).
    package private(set) var bytes: [UInt8] = []

    package init(reserving capacity: Int = 1 << 16) {
        bytes.reserveCapacity(capacity)
    }

    /// Room for `capacity` bytes in all without growing.
    package mutating func reserveCapacity(_ capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// The text written so far.
    var string: String { String(decoding: bytes, as: UTF8.self) }

    package mutating func append(_ s: String) {
        bytes.append(contentsOf: s.utf8)
    }

    package mutating func append(byte: UInt8) {
        bytes.append(byte)
    }

    /// A JSON string literal with the needed escapes (``JSONEscaping``).
    package mutating func append(quoted s: String) {
        JSONEscaping.append(quoted: s, to: &bytes)
    }

    /// A number (shortest round-trip decimal, never an exponent), or null
    /// when it is not finite.
    package mutating func append(number v: Double?) {
        guard let v, v.isFinite else { append("null"); return }
        if v == v.rounded(), abs(v) < 1e15 {
            append(fixed: Int64(v), decimals: 0)
        } else {
            append(JSONText.number(v))
        }
    }

    /// n / 10^decimals written as a plain decimal with trailing zeros dropped.
    package mutating func append(fixed n: Int64, decimals: Int) {
        if decimals < 0 {
            if n == 0 { bytes.append(UInt8(ascii: "0")); return }
            // A coarse grid for huge planar coordinates: n followed by zeros.
            append(String(n))
            bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: -decimals))
            return
        }
        let length = FixedDecimal.maximumLength + FixedDecimal.scratchBytes
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { buffer in
            let end = buffer.baseAddress! + length
            let start = FixedDecimal.of(decimals).write(n, endingAt: end)
            bytes.append(contentsOf: UnsafeBufferPointer(start: start, count: end - start))
        }
    }

    /// A position `[x,y]` of two fixed decimals.
    package mutating func append(x: Int64, y: Int64, decimals: Int) {
        guard decimals >= 0 else {
            append(byte: UInt8(ascii: "["))
            append(fixed: x, decimals: decimals)
            append(byte: UInt8(ascii: ","))
            append(fixed: y, decimals: decimals)
            append(byte: UInt8(ascii: "]"))
            return
        }
        let length = JSONText.positionLength + FixedDecimal.scratchBytes
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { buffer in
            let end = buffer.baseAddress! + length
            let start = JSONText.write(x: x, y: y, FixedDecimal.of(decimals), endingAt: end)
            bytes.append(contentsOf: UnsafeBufferPointer(start: start, count: end - start))
        }
    }

    /// The positions `[[x,y],…]` of fixed decimals, the first again at the
    /// end when `closing`; a block at a time (``writePositions(_:closing:decimals:_:)``),
    /// each appended with one copy.
    package mutating func append(positions points: [FixedPoint], closing: Bool, decimals: Int) {
        guard decimals >= 0 else {
            append(byte: UInt8(ascii: "["))
            for (k, p) in points.enumerated() {
                if k > 0 { append(byte: UInt8(ascii: ",")) }
                append(x: p.x, y: p.y, decimals: decimals)
            }
            if closing, let p = points.first {
                append(byte: UInt8(ascii: ","))
                append(x: p.x, y: p.y, decimals: decimals)
            }
            append(byte: UInt8(ascii: "]"))
            return
        }
        append(byte: UInt8(ascii: "["))
        JSONText.writePositions(points, closing: closing, decimals: decimals) { bytes.append(contentsOf: $0) }
        append(byte: UInt8(ascii: "]"))
    }

    /// The positions of ``append(positions:closing:decimals:)`` (decimals
    /// ≥ 0) without the brackets around them, a block at a time: a block
    /// of positions is written backwards, last one first, into the end of
    /// a scratch buffer — numbers come out of their digits backwards — so
    /// it lies in one piece there, handed to `emit` (at most ``blockBytes``).
    package static func writePositions(
        _ points: [FixedPoint], closing: Bool, decimals: Int,
        _ emit: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        withScratch(of: UInt8.self, capacity: scratchCapacity(points, closing: closing)) { buffer in
            writePositions(points, closing: closing, decimals: decimals, in: buffer, emit)
        }
    }

    /// The scratch bytes ``writePositions(_:closing:decimals:in:_:)``
    /// needs for `points`: room for one block, or for every position when
    /// they are fewer (a small ring's text is made on the stack). At most
    /// ``largestScratchCapacity``.
    static func scratchCapacity(_ points: [FixedPoint], closing: Bool) -> Int {
        let n = points.count + (closing && !points.isEmpty ? 1 : 0)
        return min(n, block) * (positionLength + 1) + FixedDecimal.scratchBytes
    }

    /// As ``writePositions(_:closing:decimals:_:)``, in `buffer` (at least
    /// ``scratchCapacity(_:closing:)`` bytes): for a writer that keeps one
    /// buffer for many rings.
    static func writePositions(
        _ points: [FixedPoint], closing: Bool, decimals: Int, in buffer: UnsafeMutableBufferPointer<UInt8>,
        _ emit: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        let n = points.count + (closing && !points.isEmpty ? 1 : 0)
        let format = FixedDecimal.of(decimals)
        let end = buffer.baseAddress! + buffer.count
        points.withUnsafeBufferPointer { points in
            for first in stride(from: 0, to: n, by: block) {
                var p = end
                for k in (first..<min(first + block, n)).reversed() {
                    let q = points[k == points.count ? 0 : k]
                    p = JSONText.write(x: q.x, y: q.y, format, endingAt: p)
                    if k > 0 { p -= 1; p.pointee = UInt8(ascii: ",") }
                }
                emit(UnsafeBufferPointer(start: p, count: end - p))
            }
        }
    }

    /// Positions per block of ``writePositions(_:closing:decimals:_:)``.
    private static let block = 1024
    /// The most bytes a block takes: its positions and their commas.
    static let blockBytes = block * (positionLength + 1)
    /// The most scratch any ring's text takes (``scratchCapacity(_:closing:)``).
    static let largestScratchCapacity = blockBytes + FixedDecimal.scratchBytes

    /// Appends bytes as they are.
    package mutating func append(bytes more: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: more)
    }

    /// The most bytes one position `[x,y]` takes.
    private static let positionLength = 2 * FixedDecimal.maximumLength + 3

    /// Writes `[x,y]` ending just before `end`; returns where it starts.
    /// Scratch may land in the ``FixedDecimal/scratchBytes`` before it.
    @inline(__always)
    private static func write(x: Int64, y: Int64, _ format: FixedDecimal, endingAt end: UnsafeMutablePointer<UInt8>)
        -> UnsafeMutablePointer<UInt8>
    {
        var p = end - 1
        p.pointee = UInt8(ascii: "]")
        p = format.write(y, endingAt: p)
        p -= 1; p.pointee = UInt8(ascii: ",")
        p = format.write(x, endingAt: p)
        p -= 1; p.pointee = UInt8(ascii: "[")
        return p
    }

    /// Hands the bytes written so far to `sink` and starts again empty.
    package mutating func flush(to sink: ByteSink) throws {
        try write(to: sink)
        bytes.removeAll(keepingCapacity: true)
    }

    /// Hands the bytes to `sink`, keeping them.
    package func write(to sink: ByteSink) throws {
        guard !bytes.isEmpty else { return }
        try bytes.withUnsafeBytes { try sink.write($0) }
    }

    /// Appends the bytes of another text.
    package mutating func append(_ other: JSONText) {
        bytes.append(contentsOf: other.bytes)
    }

    /// The shortest decimal that reads back as `v`, without an exponent
    /// ("0.00001", not "1e-05"); "null" for NaN and ±∞.
    package static func number(_ v: Double) -> String {
        guard v.isFinite else { return "null" }
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        let text = "\(v)"
        guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) else { return text }
        // Swift prints the shortest round-trip digits; move the point instead of writing an exponent.
        let exponent = Int(text[text.index(after: e)...]) ?? 0
        var mantissa = Substring(text[..<e])
        var sign = ""
        if mantissa.hasPrefix("-") { sign = "-"; mantissa = mantissa.dropFirst() }
        let point =
            mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) }
            ?? mantissa.count
        var digits = mantissa.filter { $0 != "." }
        var position = point + exponent
        // Leading zeros of the mantissa (none in Swift's output, but be safe).
        while digits.count > 1, digits.first == "0" { digits.removeFirst(); position -= 1 }
        var out: String
        if position <= 0 {
            out = "0." + String(repeating: "0", count: -position) + digits
        } else if position >= digits.count {
            out = digits + String(repeating: "0", count: position - digits.count)
        } else {
            let i = digits.index(digits.startIndex, offsetBy: position)
            out = digits[..<i] + "." + digits[i...]
        }
        if out.contains(".") {
            while out.hasSuffix("0") { out.removeLast() }
            if out.hasSuffix(".") { out.removeLast() }
        }
        return sign + out
    }
}
