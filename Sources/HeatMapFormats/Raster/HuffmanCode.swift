import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// A canonical Huffman code (RFC 1951; docs/formats.md): lengths per symbol, and the
/// codes they give, bit-reversed so a least-significant-first writer emits
/// them most-significant bit first.
struct HuffmanCode {
    /// Code length per symbol (0 = unused).
    var lengths: [UInt8]
    /// Bit-reversed code per symbol.
    var codes: [UInt32]

    /// The canonical code of the given lengths.
    package init(lengths: [UInt8]) {
        self.lengths = lengths
        var countPerLength = [Int](repeating: 0, count: 16)
        for l in lengths where l > 0 { countPerLength[Int(l)] += 1 }
        var next = [Int](repeating: 0, count: 16)
        var code = 0
        for bits in 1..<16 {
            code = (code + countPerLength[bits - 1]) << 1
            next[bits] = code
        }
        codes = [UInt32](repeating: 0, count: lengths.count)
        for (symbol, l) in lengths.enumerated() where l > 0 {
            codes[symbol] = HuffmanCode.reversed(UInt32(next[Int(l)]), width: Int(l))
            next[Int(l)] += 1
        }
    }

    /// The code for `frequencies`, no code longer than `limit` bits. Two
    /// symbols at least get a code (a one-symbol code is not decodable by
    /// every inflater). Frequencies are halved until the tree fits the limit.
    package init(frequencies: [Int], limit: Int) {
        self.init(lengths: HuffmanCode.lengths(frequencies, limit: limit))
    }

    static func reversed(_ code: UInt32, width: Int) -> UInt32 {
        var r: UInt32 = 0, c = code
        for _ in 0..<width { r = (r << 1) | (c & 1); c >>= 1 }
        return r
    }

    /// Huffman code lengths by the two-queue method over sorted leaves.
    static func lengths(_ frequencies: [Int], limit: Int) -> [UInt8] {
        var freq = frequencies
        var used = freq.indices.filter { freq[$0] > 0 }
        // Two symbols at least, so every code has a sibling.
        var extra = 0
        while used.count < 2 {
            if freq[extra] == 0 { freq[extra] = 1; used.append(extra) }
            extra += 1
        }
        while true {
            let lengths = unlimitedLengths(freq, symbols: used)
            if lengths.max()! <= limit {
                var out = [UInt8](repeating: 0, count: freq.count)
                for (k, s) in used.enumerated() { out[s] = UInt8(lengths[k]) }
                return out
            }
            for s in used { freq[s] = (freq[s] + 1) / 2 }
        }
    }

    /// Lengths of an optimal prefix code for `symbols` (in that order).
    private static func unlimitedLengths(_ freq: [Int], symbols: [Int]) -> [Int] {
        let leaves = symbols.indices.sorted { freq[symbols[$0]] < freq[symbols[$1]] }
        let n = leaves.count
        // Nodes 0..<n are leaves (sorted), n... are internal; parent links give depths.
        var weight = leaves.map { freq[symbols[$0]] }
        var parent = [Int](repeating: -1, count: 2 * n - 1)
        weight.reserveCapacity(2 * n - 1)
        var leaf = 0, inner = n
        func takeSmallest() -> Int {
            if leaf < n && (inner >= weight.count || weight[leaf] <= weight[inner]) { leaf += 1; return leaf - 1 }
            inner += 1
            return inner - 1
        }
        for _ in 0..<(n - 1) {
            let a = takeSmallest(), b = takeSmallest()
            parent[a] = weight.count; parent[b] = weight.count
            weight.append(weight[a] + weight[b])
        }
        var depth = [Int](repeating: 0, count: 2 * n - 1)
        for node in stride(from: 2 * n - 3, through: 0, by: -1) { depth[node] = depth[parent[node]] + 1 }
        var out = [Int](repeating: 0, count: n)
        for (k, symbolIndex) in leaves.enumerated() { out[symbolIndex] = depth[k] }
        return out
    }
}
