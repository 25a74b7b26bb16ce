import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Tile data (of a PMTiles archive, or a GeoTIFF's bands) held on disk
/// until the directories that point into it are written ahead of it: an
/// unnamed temporary file (``UnlinkedTemporaryFile``), so nothing is left
/// behind, whatever happens.
final class TileSpool {
    private let descriptor: Int32
    private(set) var count: UInt64 = 0

    /// - Throws: ``InputError`` naming the folder when the file cannot be made.
    init() throws {
        descriptor = try UnlinkedTemporaryFile.open(prefix: "heatmap-tiles")
    }

    deinit { close(descriptor) }

    /// Appends `bytes`.
    func append(_ bytes: [UInt8]) throws {
        var done = 0
        try bytes.withUnsafeBytes { raw in
            while done < raw.count {
                let n = write(descriptor, raw.baseAddress! + done, raw.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw HeatMapError.invalidConfiguration(
                        "cannot write the tiles' temporary file: \(String(cString: strerror(errno)))")
                }
                done += n
            }
        }
        count += UInt64(bytes.count)
    }

    /// Hands everything appended to `write`, 1 MiB at a time.
    func copy(to write: (UnsafeRawBufferPointer) throws -> Void) throws {
        try copy(0..<count, to: write)
    }

    /// Hands the bytes at `range` (offsets from the first appended) to `write`, 1 MiB at a time.
    func copy(_ range: Range<UInt64>, to write: (UnsafeRawBufferPointer) throws -> Void) throws {
        var buffer = [UInt8](repeating: 0, count: Int(min(1 << 20, max(range.count, 1))))
        var offset = range.lowerBound
        while offset < range.upperBound {
            let want = Int(min(UInt64(buffer.count), range.upperBound - offset))
            let n = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, want, off_t(offset)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                throw HeatMapError.invalidConfiguration("cannot read the tiles' temporary file back")
            }
            try buffer.withUnsafeBytes { try write(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            offset += UInt64(n)
        }
    }
}
