import Foundation
import HeatMapContouring
import HeatMapCore
import HeatMapDensity

/// The numeric constants of the H3 system, in double precision. Every step
/// that uses them is evaluated in the reference's order, which makes ids,
/// boundaries and areas bit-identical to it (Scripts/check-h3.sh checks).
enum H3Constants {
    static let twoPi: Double = 6.28318530717958647692528676655900576839433
    static let piOver180: Double = 0.0174532925199432957692369076848861271111
    static let d180OverPi: Double = 57.29577951308232087679815481410517033240547
    static let epsilon: Double = 0.0000000000000001
    static let sqrt3Over2: Double = 0.8660254037844386467637231707529361834714
    static let inverseSin60: Double = 1.1547005383792515290182975610039149112953
    static let sqrt7: Double = 2.6457513110645905905016157536392604257102
    static let inverseSqrt7: Double = 0.37796447300922722721451653623418006081576
    static let oneThird: Double = 0.333333333333333333333333333333333333333
    /// The rotation between Class II and Class III axes, asin(√(3/28)).
    static let ap7Rotation: Double = 0.333473172251832115336090755351601070065900389
    /// Resolution-0 unit length in the gnomonic plane.
    static let res0UnitGnomonic: Double = 0.38196601125010500003
    static let inverseRes0UnitGnomonic: Double = 2.61803398874989588842
    /// The authalic Earth radius H3 uses, km.
    static let earthRadiusKm: Double = 6371.007180918475
    static let maxResolution = 15
    static let baseCellCount = 122

    /// Face-edge length of a Class II resolution grid in hex units (index by resolution).
    static let maxDimByClassIIResolution: [Int] = [
        2, -1, 14, -1, 98, -1, 686, -1, 4802, -1, 33614, -1, 235298, -1, 1647086, -1, 11529602
    ]
    /// Unit scale of a Class II resolution grid relative to resolution 0.
    static let unitScaleByClassIIResolution: [Int] = [
        1, -1, 7, -1, 49, -1, 343, -1, 2401, -1, 16807, -1, 117649, -1, 823543, -1, 5764801
    ]

    static func isClassIII(_ resolution: Int) -> Bool { resolution & 1 == 1 }

    /// Degrees to radians as the reference converts them.
    @inline(__always) static func radians(_ degrees: Double) -> Double { degrees * piOver180 }
    /// Radians to degrees as the reference converts them.
    @inline(__always) static func degrees(_ radians: Double) -> Double { radians * d180OverPi }
}
