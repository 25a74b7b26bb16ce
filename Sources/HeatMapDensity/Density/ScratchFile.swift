import Foundation
import HeatMapCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An anonymous temporary file of doubles read and written at offsets:
/// unlinked as soon as it is made, so the system reclaims it however the
/// process ends. For data that must be passed over again in bounded memory
/// (points sorted by time, the grids of time intervals).
final class ScratchFile {
    private let fd: Int32

    /// Creates the file in `$TMPDIR` (or /tmp).
    /// - Throws: ``InputError`` when it cannot be made.
    package init() throws {
        fd = try UnlinkedTemporaryFile.open(prefix: "contours-scratch")
    }

    deinit { close(fd) }

    /// Writes `values` at double index `at`.
    package func write(_ values: UnsafeBufferPointer<Double>, at index: Int) throws {
        let bytes = values.count * 8
        var done = 0
        let raw = UnsafeRawPointer(values.baseAddress)
        while done < bytes, let raw {
            let n = pwrite(fd, raw + done, bytes - done, off_t(index * 8 + done))
            if n < 0 {
                if errno == EINTR { continue }
                throw InputError(
                    file: "temporary file", line: 0, column: "", reason: "temporary file",
                    message: "cannot write a temporary file: \(String(cString: strerror(errno)))")
            }
            done += n
        }
    }

    /// Fills `values` from double index `at`.
    package func read(into values: UnsafeMutableBufferPointer<Double>, at index: Int) throws {
        let bytes = values.count * 8
        var done = 0
        let raw = UnsafeMutableRawPointer(values.baseAddress)
        while done < bytes, let raw {
            let n = pread(fd, raw + done, bytes - done, off_t(index * 8 + done))
            if n < 0 {
                if errno == EINTR { continue }
                throw InputError(
                    file: "temporary file", line: 0, column: "", reason: "temporary file",
                    message: "cannot read a temporary file: \(String(cString: strerror(errno)))")
            }
            if n == 0 {
                throw InputError(
                    file: "temporary file", line: 0, column: "", reason: "temporary file",
                    message: "a temporary file ended early")
            }
            done += n
        }
    }
}
