#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Calls `body` with uninitialized room for `capacity` values of `T`, for
/// work space that lives only as long as the call: on the stack up to
/// ``scratchStackBytes``, else from `malloc`.
///
/// Past that size Swift's `withUnsafeTemporaryAllocation` takes the heap,
/// and on Linux its heap (like `UnsafeMutablePointer.allocate`) goes
/// through `posix_memalign`, several times the cost of a `malloc`: per
/// ring of a contour export that was a few percent of the whole job.
/// Callers size the room to what the call needs, so that most calls stay
/// on the stack. O(1) besides `body`.
@inlinable package func withScratch<T, Result>(
    of type: T.Type, capacity: Int, _ body: (UnsafeMutableBufferPointer<T>) throws -> Result
) rethrows -> Result {
    let bytes = max(capacity, 1) * MemoryLayout<T>.stride
    if bytes <= scratchStackBytes {
        return try withUnsafeTemporaryAllocation(of: type, capacity: max(capacity, 1)) { try body($0) }
    }
    // Over-aligned values, or no memory left: Swift's own allocation.
    guard MemoryLayout<T>.alignment <= 16, let raw = malloc(bytes) else {
        return try withUnsafeTemporaryAllocation(of: type, capacity: max(capacity, 1)) { try body($0) }
    }
    defer { free(raw) }
    let start = raw.bindMemory(to: type, capacity: max(capacity, 1))
    return try body(UnsafeMutableBufferPointer(start: start, count: max(capacity, 1)))
}

/// The most bytes ``withScratch(of:capacity:_:)`` takes from the stack:
/// the size up to which Swift's temporary allocation stays there.
@usableFromInline package let scratchStackBytes = 1024
