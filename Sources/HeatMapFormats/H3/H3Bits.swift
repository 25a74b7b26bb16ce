import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// The 64-bit H3 index layout: bit 63 reserved (0), bits 59–62 the mode
/// (1 = cell), 56–58 reserved, 52–55 the resolution, 45–51 the base cell,
/// then fifteen 3-bit digits, resolution 1 first; digits past the
/// resolution are 7.
enum H3Bits {
    static let modeShift: UInt64 = 59
    static let resolutionShift: UInt64 = 52
    static let baseCellShift: UInt64 = 45
    /// A cell index with mode 1, resolution 0, base cell 0 and every digit 7.
    static let initial: UInt64 = (1 << modeShift) | 0x0000_1FFF_FFFF_FFFF

    @inline(__always) package static func resolution(_ h: UInt64) -> Int { Int((h >> resolutionShift) & 0xF) }
    @inline(__always) static func baseCell(_ h: UInt64) -> Int { Int((h >> baseCellShift) & 0x7F) }
    @inline(__always) static func digit(_ h: UInt64, _ r: Int) -> Int { Int((h >> UInt64((15 - r) * 3)) & 7) }

    @inline(__always) static func settingResolution(_ h: UInt64, _ res: Int) -> UInt64 {
        (h & ~(0xF << resolutionShift)) | (UInt64(res) << resolutionShift)
    }
    @inline(__always) static func settingBaseCell(_ h: UInt64, _ cell: Int) -> UInt64 {
        (h & ~(0x7F << baseCellShift)) | (UInt64(cell) << baseCellShift)
    }
    @inline(__always) static func settingDigit(_ h: UInt64, _ r: Int, _ d: Int) -> UInt64 {
        let shift = UInt64((15 - r) * 3)
        return (h & ~(7 << shift)) | (UInt64(d) << shift)
    }

    /// The first non-zero digit (0 when all are zero).
    @inline(__always) static func leadingNonZeroDigit(_ h: UInt64) -> Int {
        let res = resolution(h)
        if res == 0 { return 0 }
        for r in 1...res {
            let d = digit(h, r)
            if d != 0 { return d }
        }
        return 0
    }

    /// Digit rotations: k → ik → i → ij → j → jk → k is counter-clockwise.
    static let ccwDigit: [Int] = [0, 5, 3, 1, 6, 4, 2, 7]
    static let cwDigit: [Int] = [0, 3, 6, 2, 5, 1, 4, 7]

    @inline(__always) static func rotated60ccw(_ h: UInt64) -> UInt64 { rotated(h, ccwDigit) }

    @inline(__always) static func rotated60cw(_ h: UInt64) -> UInt64 { rotated(h, cwDigit) }

    /// Every digit of `h` replaced by its image under `rotation`.
    @inline(__always) private static func rotated(_ h: UInt64, _ rotation: [Int]) -> UInt64 {
        var h = h
        let res = resolution(h)
        if res == 0 { return h }
        for r in 1...res { h = settingDigit(h, r, rotation[digit(h, r)]) }
        return h
    }

    /// Rotated 60° ccw about a pentagon's centre: past the first non-zero
    /// digit, a leading k digit (the deleted subsequence) turns once more.
    static func rotatedPentagon60ccw(_ h: UInt64) -> UInt64 {
        var h = h
        let res = resolution(h)
        if res == 0 { return h }
        var foundFirst = false
        for r in 1...res {
            h = settingDigit(h, r, ccwDigit[digit(h, r)])
            if !foundFirst && digit(h, r) != 0 {
                foundFirst = true
                if leadingNonZeroDigit(h) == 1 { h = rotated60ccw(h) }
            }
        }
        return h
    }
}
