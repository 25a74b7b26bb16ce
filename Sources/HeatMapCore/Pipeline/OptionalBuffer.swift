import Foundation

/// Calls `body` with the buffer of `slice`, or nil: for optional columns
/// (values, weights) read through raw pointers in the hot loops.
package func withOptionalSlice<R>(
    _ slice: ArraySlice<Double>?,
    _ body: (UnsafeBufferPointer<Double>?) throws -> R
) rethrows -> R {
    guard let slice else { return try body(nil) }
    return try slice.withUnsafeBufferPointer { try body($0) }
}

/// Calls `body` with the first element of `array`'s buffer, or nil.
package func withOptionalBuffer<R>(_ array: [Double]?, _ body: (UnsafePointer<Double>?) throws -> R) rethrows -> R {
    try withOptionalSlice(array?[...]) { try body($0?.baseAddress) }
}

/// Calls `body` with the mutable buffer of `array`, or nil.
func withOptionalMutable<R>(
    _ array: inout [Double]?,
    _ body: (UnsafeMutableBufferPointer<Double>?) throws -> R
) rethrows -> R {
    guard array != nil else { return try body(nil) }
    return try array!.withUnsafeMutableBufferPointer { try body($0) }
}
