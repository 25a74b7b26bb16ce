import Foundation

/// The largest of some doubles and 0, the value `values.reduce(0) { max($0, $1) }`
/// finds (a value that is not a number is never taken), eight lanes a
/// step rather than one compare after another. O(n).
enum LargestValue {
    static func of(_ values: UnsafeBufferPointer<Double>) -> Double {
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
