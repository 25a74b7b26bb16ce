import Foundation

/// Björn Ottosson's OKLab, a perceptual colour space in which straight
/// lines give even-looking blends (no muddy middle between blue and
/// yellow, no dark band between red and green). Internal: gradients
/// interpolate here.
struct OKLab: Hashable {
    /// Lightness, about 0...1.
    package var l: Double
    /// Green–red axis.
    package var a: Double
    /// Blue–yellow axis.
    package var b: Double

    /// The OKLab coordinates of an sRGB colour (alpha ignored). O(1).
    package init(_ c: HeatMapColor) {
        let r = OKLab.linear(c.red), g = OKLab.linear(c.green), bl = OKLab.linear(c.blue)
        // Linear sRGB → LMS cone response, then a cube root, then OKLab.
        let lms0 = cbrt(0.412_221_470_8 * r + 0.536_332_536_3 * g + 0.051_445_992_9 * bl)
        let lms1 = cbrt(0.211_903_498_2 * r + 0.680_699_545_1 * g + 0.107_396_956_6 * bl)
        let lms2 = cbrt(0.088_302_461_9 * r + 0.281_718_837_6 * g + 0.629_978_700_5 * bl)
        l = 0.210_454_255_3 * lms0 + 0.793_617_785_0 * lms1 - 0.004_072_046_8 * lms2
        a = 1.977_998_495_1 * lms0 - 2.428_592_205_0 * lms1 + 0.450_593_709_9 * lms2
        b = 0.025_904_037_1 * lms0 + 0.782_771_766_2 * lms1 - 0.808_675_766_0 * lms2
    }

    package init(l: Double, a: Double, b: Double) {
        self.l = l
        self.a = a
        self.b = b
    }

    /// Back to sRGB with the given alpha; out-of-gamut components are clamped.
    package func color(alpha: Double) -> HeatMapColor {
        let lms0 = l + 0.396_337_777_4 * a + 0.215_803_757_3 * b
        let lms1 = l - 0.105_561_345_8 * a - 0.063_854_172_8 * b
        let lms2 = l - 0.089_484_177_5 * a - 1.291_485_548_0 * b
        let c0 = lms0 * lms0 * lms0, c1 = lms1 * lms1 * lms1, c2 = lms2 * lms2 * lms2
        let r = 4.076_741_662_1 * c0 - 3.307_711_591_3 * c1 + 0.230_969_929_2 * c2
        let g = -1.268_438_004_6 * c0 + 2.609_757_401_1 * c1 - 0.341_319_396_5 * c2
        let bl = -0.004_196_086_3 * c0 - 0.703_418_614_7 * c1 + 1.707_614_701_0 * c2
        return HeatMapColor(red: OKLab.gamma(r), green: OKLab.gamma(g), blue: OKLab.gamma(bl), alpha: alpha)
    }

    /// sRGB transfer function, encoded → linear light.
    package static func linear(_ c: Double) -> Double {
        c <= 0.040_45 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    /// sRGB transfer function, linear light → encoded.
    static func gamma(_ c: Double) -> Double {
        let v = min(max(c, 0), 1)
        return v <= 0.003_130_8 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055
    }
}
