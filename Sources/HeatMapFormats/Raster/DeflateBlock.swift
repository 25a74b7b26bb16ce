import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// The symbols of one DEFLATE block, and the choice of how to write it.
struct DeflateBlock {
    /// Match length per symbol, 0 for a literal.
    private var lengths: [UInt16] = []
    /// The literal byte, or the match distance.
    private var values: [UInt16] = []
    private var literalFrequency = [Int](repeating: 0, count: 286)
    private var distanceFrequency = [Int](repeating: 0, count: 30)
    package static let capacity = 1 << 16

    package init() {
        lengths.reserveCapacity(DeflateBlock.capacity)
        values.reserveCapacity(DeflateBlock.capacity)
    }

    var symbolCount: Int { lengths.count }
    var isFull: Bool { lengths.count >= DeflateBlock.capacity }

    @inline(__always)
    mutating func addLiteral(_ byte: UInt8) {
        lengths.append(0)
        values.append(UInt16(byte))
        literalFrequency[Int(byte)] += 1
    }

    @inline(__always)
    mutating func addMatch(length: Int, distance: Int) {
        lengths.append(UInt16(length))
        values.append(UInt16(truncatingIfNeeded: distance))
        literalFrequency[257 + Int(DeflateTables.lengthCode[length])] += 1
        distanceFrequency[DeflateTables.distanceCode(distance)] += 1
    }

    /// Writes the block (bytes `start..<end` of `source`) in its smallest
    /// form, then empties it.
    package mutating func write(
        into writer: inout DeflateBitWriter, source: UnsafeBufferPointer<UInt8>,
        start: Int, end: Int, last: Bool
    ) {
        literalFrequency[256] = 1
        let literal = HuffmanCode(frequencies: literalFrequency, limit: 15)
        let distance = HuffmanCode(frequencies: distanceFrequency, limit: 15)
        let header = DynamicHeader(literal: literal, distance: distance)
        let dynamicBits = 3 + header.bits + payloadBits(literal, distance)
        let fixedBits = 3 + payloadBits(DeflateTables.fixedLiteral, DeflateTables.fixedDistance)
        let storedBits = (end - start) * 8 + ((end - start) / 65535 + 1) * 40
        let isLast: UInt32 = last ? 1 : 0
        if storedBits < min(dynamicBits, fixedBits) {
            var s = start
            repeat {
                let chunk = min(65535, end - s)
                let final = last && s + chunk == end
                writer.write(final ? 1 : 0, width: 1)
                writer.write(0, width: 2)
                writer.alignToByte()
                let len = UInt16(chunk)
                writer.append(contentsOf: [UInt8(len & 0xFF), UInt8(len >> 8), UInt8(~len & 0xFF), UInt8(~len >> 8)])
                writer.append(contentsOf: UnsafeBufferPointer(rebasing: source[s..<(s + chunk)]))
                s += chunk
            } while s < end
        } else if fixedBits <= dynamicBits {
            writer.write(isLast, width: 1)
            writer.write(1, width: 2)
            emit(into: &writer, DeflateTables.fixedLiteral, DeflateTables.fixedDistance)
        } else {
            writer.write(isLast, width: 1)
            writer.write(2, width: 2)
            header.write(into: &writer)
            emit(into: &writer, literal, distance)
        }
        lengths.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        for k in literalFrequency.indices { literalFrequency[k] = 0 }
        for k in distanceFrequency.indices { distanceFrequency[k] = 0 }
    }

    private func payloadBits(_ literal: HuffmanCode, _ distance: HuffmanCode) -> Int {
        var bits = 0
        for s in 0..<286 where literalFrequency[s] > 0 {
            bits += literalFrequency[s] * (Int(literal.lengths[s]) + (s > 256 ? DeflateTables.lengthExtra[s - 257] : 0))
        }
        for d in 0..<30 where distanceFrequency[d] > 0 {
            bits += distanceFrequency[d] * (Int(distance.lengths[d]) + DeflateTables.distanceExtra[d])
        }
        return bits
    }

    private func emit(into writer: inout DeflateBitWriter, _ literal: HuffmanCode, _ distance: HuffmanCode) {
        literal.codes.withUnsafeBufferPointer { lc in
            literal.lengths.withUnsafeBufferPointer { ll in
                distance.codes.withUnsafeBufferPointer { dc in
                    distance.lengths.withUnsafeBufferPointer { dl in
                        for k in 0..<lengths.count {
                            let length = Int(lengths[k])
                            if length == 0 {
                                let s = Int(values[k])
                                writer.write(code: lc[s], length: Int(ll[s]))
                                continue
                            }
                            let code = Int(DeflateTables.lengthCode[length])
                            writer.write(code: lc[257 + code], length: Int(ll[257 + code]))
                            let le = DeflateTables.lengthExtra[code]
                            if le > 0 { writer.write(UInt32(length - DeflateTables.lengthBase[code]), width: le) }
                            let dist = Int(values[k])
                            let dcode = DeflateTables.distanceCode(dist)
                            writer.write(code: dc[dcode], length: Int(dl[dcode]))
                            let de = DeflateTables.distanceExtra[dcode]
                            if de > 0 { writer.write(UInt32(dist - DeflateTables.distanceBase[dcode]), width: de) }
                        }
                    }
                }
            }
        }
        writer.write(code: literal.codes[256], length: Int(literal.lengths[256]))
    }
}

/// The header of a dynamic block: the code lengths of both codes,
/// run-length coded with symbols 16–18, under a code-length code.
struct DynamicHeader {
    private let literalCount: Int
    private let distanceCount: Int
    private let symbols: [(symbol: Int, extra: Int)]
    private let codeLengthCode: HuffmanCode
    private let codeLengthCount: Int
    let bits: Int

    package init(literal: HuffmanCode, distance: HuffmanCode) {
        var lc = 286
        while lc > 257 && literal.lengths[lc - 1] == 0 { lc -= 1 }
        var dc = 30
        while dc > 1 && distance.lengths[dc - 1] == 0 { dc -= 1 }
        literalCount = lc
        distanceCount = dc
        let all = Array(literal.lengths[0..<lc]) + Array(distance.lengths[0..<dc])
        var out: [(Int, Int)] = []
        var i = 0
        while i < all.count {
            let v = all[i]
            var run = 1
            while i + run < all.count && all[i + run] == v { run += 1 }
            var left = run
            if v == 0 {
                while left >= 11 { let r = min(left, 138); out.append((18, r - 11)); left -= r }
                if left >= 3 { out.append((17, left - 3)); left = 0 }
            } else {
                out.append((Int(v), 0)); left -= 1
                while left >= 3 { let r = min(left, 6); out.append((16, r - 3)); left -= r }
            }
            for _ in 0..<left { out.append((Int(v), 0)) }
            i += run
        }
        symbols = out
        var freq = [Int](repeating: 0, count: 19)
        for (s, _) in out { freq[s] += 1 }
        codeLengthCode = HuffmanCode(frequencies: freq, limit: 7)
        var n = 19
        while n > 4 && codeLengthCode.lengths[DeflateTables.codeLengthOrder[n - 1]] == 0 { n -= 1 }
        codeLengthCount = n
        var b = 5 + 5 + 4 + 3 * n
        for (s, _) in out { b += Int(codeLengthCode.lengths[s]) + (s == 16 ? 2 : s == 17 ? 3 : s == 18 ? 7 : 0) }
        bits = b
    }

    package func write(into writer: inout DeflateBitWriter) {
        writer.write(UInt32(literalCount - 257), width: 5)
        writer.write(UInt32(distanceCount - 1), width: 5)
        writer.write(UInt32(codeLengthCount - 4), width: 4)
        for k in 0..<codeLengthCount {
            writer.write(UInt32(codeLengthCode.lengths[DeflateTables.codeLengthOrder[k]]), width: 3)
        }
        for (s, extra) in symbols {
            writer.write(code: codeLengthCode.codes[s], length: Int(codeLengthCode.lengths[s]))
            switch s {
            case 16: writer.write(UInt32(extra), width: 2)
            case 17: writer.write(UInt32(extra), width: 3)
            case 18: writer.write(UInt32(extra), width: 7)
            default: break
            }
        }
    }
}
