import Foundation
import HeatMapCore

/// The largest of some doubles and 0, the value `values.reduce(0) { max($0, $1) }`
/// finds (a value that is not a number is never taken), eight lanes a
/// step rather than one compare after another, and a grid's worth by
/// blocks on all cores (the largest is the same whatever the order). O(n).
enum LargestValue {
    static func of(_ values: UnsafeBufferPointer<Double>) -> Double {
        guard values.count > 1 << 17 else { return serial(values) }
        let blocks = Parallel.blocks(of: values.count, size: 1 << 16)
        let parts = UncheckedSendable(values)
        return Parallel.map(blocks.count) { b in
            serial(UnsafeBufferPointer(rebasing: parts.value[blocks[b]]))
        }.reduce(0) { max($0, $1) }
    }

    private static func serial(_ values: UnsafeBufferPointer<Double>) -> Double {
        var lanes = SIMD8<Double>(repeating: 0)
        var i = 0
        while i + 8 <= values.count {
            let next = UnsafeRawPointer(values.baseAddress! + i).loadUnaligned(as: SIMD8<Double>.self)
            lanes.replace(with: next, where: next .>= lanes)
            i += 8
        }
        var largest = 0.0
        for k in 0..<8 where lanes[k] >= largest { largest = lanes[k] }
        while i < values.count {
            if values[i] >= largest { largest = values[i] }
            i += 1
        }
        return largest
    }

    static func of(_ values: [Double]) -> Double { values.withUnsafeBufferPointer { of($0) } }
}
