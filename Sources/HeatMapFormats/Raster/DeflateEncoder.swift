import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// A DEFLATE compressor (RFC 1951) in a zlib wrapper (RFC 1950), as TIFF
/// compression 8 stores tiles.
///
/// LZ77 with hash chains over a 32 KiB window finds matches (greedy, the
/// chain walk bounded by `maxChain`); every block of up to 64 Ki symbols is
/// written with whichever of a dynamic Huffman code, the fixed code, or
/// stored bytes is smallest. Deterministic: the same bytes give the same
/// stream. O(n × maxChain) time, O(n) memory.
enum DeflateEncoder {
    /// A zlib stream of `data`.
    static func zlib(_ data: [UInt8], maxChain: Int = 32) -> [UInt8] {
        data.withUnsafeBufferPointer { zlib($0, maxChain: maxChain) }
    }

    /// A zlib stream of the bytes in `data`.
    static func zlib(_ data: UnsafeBufferPointer<UInt8>, maxChain: Int = 32) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x9C]
        out.append(contentsOf: deflate(data, maxChain: maxChain))
        let a = Adler32.checksum(data)
        out.append(contentsOf: [UInt8(a >> 24), UInt8((a >> 16) & 0xFF), UInt8((a >> 8) & 0xFF), UInt8(a & 0xFF)])
        return out
    }

    /// A raw DEFLATE stream of `data` (no zlib header or checksum).
    static func deflate(_ data: UnsafeBufferPointer<UInt8>, maxChain: Int = 32) -> [UInt8] {
        var writer = DeflateBitWriter(capacity: data.count / 2 + 64)
        var block = DeflateBlock()
        let n = data.count
        if n == 0 {
            block.write(into: &writer, source: data, start: 0, end: 0, last: true)
            return writer.finish()
        }
        let windowSize = 1 << 15, windowMask = windowSize - 1
        let hashBits = 15, hashMask = (1 << hashBits) - 1
        var head = [Int32](repeating: -1, count: 1 << hashBits)
        var prev = [Int32](repeating: -1, count: windowSize)
        let niceLength = 128
        head.withUnsafeMutableBufferPointer { head in
            prev.withUnsafeMutableBufferPointer { prev in
                @inline(__always) func hash(_ i: Int) -> Int {
                    let v = Int(data[i]) << 16 | Int(data[i + 1]) << 8 | Int(data[i + 2])
                    return ((v &* 0x9E3779B1) >> 17) & hashMask
                }
                @inline(__always) func insert(_ i: Int) {
                    let h = hash(i)
                    prev[i & windowMask] = head[h]
                    head[h] = Int32(i)
                }
                var blockStart = 0
                var i = 0
                while i < n {
                    var bestLength = 0, bestDistance = 0
                    if i + 3 <= n {
                        let h = hash(i)
                        var candidate = Int(head[h])
                        prev[i & windowMask] = head[h]
                        head[h] = Int32(i)
                        let maxLength = min(258, n - i)
                        var chain = maxChain
                        while candidate >= 0 && i - candidate <= windowSize - 262 && chain > 0 {
                            if data[candidate + bestLength] == data[i + bestLength] || bestLength == 0 {
                                var l = 0
                                while l < maxLength && data[candidate + l] == data[i + l] { l += 1 }
                                if l > bestLength {
                                    bestLength = l
                                    bestDistance = i - candidate
                                    if l >= niceLength || l == maxLength { break }
                                }
                            }
                            let next = Int(prev[candidate & windowMask])
                            if next >= candidate { break }
                            candidate = next
                            chain -= 1
                        }
                    }
                    if bestLength >= 3 {
                        block.addMatch(length: bestLength, distance: bestDistance)
                        let end = i + bestLength
                        var j = i + 1
                        while j < end && j + 3 <= n { insert(j); j += 1 }
                        i = end
                    } else {
                        block.addLiteral(data[i])
                        i += 1
                    }
                    if block.isFull {
                        block.write(into: &writer, source: data, start: blockStart, end: i, last: i == n)
                        blockStart = i
                    }
                }
                if blockStart < n || block.symbolCount > 0 {
                    block.write(into: &writer, source: data, start: blockStart, end: n, last: true)
                }
            }
        }
        return writer.finish()
    }
}
