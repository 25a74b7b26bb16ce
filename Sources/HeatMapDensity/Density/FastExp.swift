import Foundation
import HeatMapCore

/// e^x for x ≤ 0 to about 1e−10 relative — ample for kernel weights that
/// need 1e−3 — and several times faster than libm's `exp`: x = k·ln 2 + r
/// with |r| ≤ ln 2 / 2, e^r by a degree-8 Taylor polynomial in Estrin's
/// form (short dependency chains), 2^k by the exponent bits.
/// Returns 0 below −708 (where e^x is subnormal); x > 0 falls back to `exp`.
@inline(__always) func expOfNegative(_ x: Double) -> Double {
    guard x > -708 else { return 0 }
    guard x <= 0 else { return exp(x) }
    let t = x * 1.442_695_040_888_963_4  // log₂ e
    let k = GaussianAxis.floor(t + 0.5)
    let kd = Double(k)
    // Cody–Waite: ln 2 split so that kd · ln2High is exact.
    let r = (x - kd * 0.693_147_180_369_123_816_49) - kd * 1.908_214_929_270_587_7e-10
    let r2 = r * r, r4 = r2 * r2
    let p01 = 1 + r, p23 = 0.5 + r * (1.0 / 6), p45 = 1.0 / 24 + r * (1.0 / 120)
    let p67 = 1.0 / 720 + r * (1.0 / 5_040), p8 = 1.0 / 40_320
    let p = ((p01 + r2 * p23) + r4 * (p45 + r2 * p67)) + (r4 * r4) * p8
    return p * Double(bitPattern: UInt64(1023 + k) << 52)
}
