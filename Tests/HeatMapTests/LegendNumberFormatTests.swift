import Foundation
import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

@Suite struct LegendNumberFormatTests {
    @Test func readsWell() {
        #expect(HeatMapNumberFormat.string(0.1 + 0.2) == "0.3")
        #expect(HeatMapNumberFormat.string(0.5) == "0.5")
        #expect(HeatMapNumberFormat.string(1) == "1")
        #expect(HeatMapNumberFormat.string(1.5) == "1.5")
        #expect(HeatMapNumberFormat.string(1.0 / 3) == "0.333")
        #expect(HeatMapNumberFormat.string(2.0 / 3) == "0.667")
        #expect(HeatMapNumberFormat.string(1234) == "1234")
        #expect(HeatMapNumberFormat.string(215_000) == "215,000")
        #expect(HeatMapNumberFormat.string(215_123.4, significantDigits: 6) == "215,123")
        #expect(HeatMapNumberFormat.string(0.000_25) == "0.00025")
        #expect(HeatMapNumberFormat.string(0.000_012_34) == "1.23×10⁻⁵")
        #expect(HeatMapNumberFormat.string(3e20) == "3×10²⁰")
        #expect(HeatMapNumberFormat.string(-0.5) == "−0.5")
        #expect(HeatMapNumberFormat.string(0) == "0")
        #expect(HeatMapNumberFormat.string(-0.0) == "0")
        #expect(HeatMapNumberFormat.string(9.9999) == "10")
        #expect(HeatMapNumberFormat.string(.nan) == "NaN")
        #expect(HeatMapNumberFormat.string(.infinity) == "∞")
    }

    @Test func listsTellDistinctValuesApart() {
        #expect(HeatMapNumberFormat.strings([1.001, 1.002, 1.003]) == ["1.001", "1.002", "1.003"])
        #expect(HeatMapNumberFormat.strings([0.1, 0.2, 0.1 + 0.2]) == ["0.1", "0.2", "0.3"])
        #expect(HeatMapNumberFormat.strings([26.477187883045453, 52.954375766090905]) == ["26.5", "53"])
        #expect(HeatMapNumberFormat.strings([5, 5]) == ["5", "5"])
        #expect(HeatMapNumberFormat.strings([]) == [])
    }

    @Test func labelsCarryUnits() {
        #expect(HeatMapNumberFormat.label(0.5, units: "per km²") == "0.5 per km²")
        #expect(HeatMapNumberFormat.label(12, units: "%") == "12%")
        #expect(HeatMapNumberFormat.label(12, units: "") == "12")
    }

    @Test func pixelNumbersAreCompact() {
        #expect(NumberText.fixed(12.345_6, decimals: 2) == "12.35")
        #expect(NumberText.fixed(12.5, decimals: 2) == "12.5")
        #expect(NumberText.fixed(-0.001, decimals: 2) == "0")
        #expect(NumberText.fixed(-3.1, decimals: 2) == "-3.1")
        #expect(NumberText.fixed(0.05, decimals: 2) == "0.05")
        #expect(NumberText.fixed(.nan, decimals: 2) == "0")
        #expect(NumberText.fixed(1e300, decimals: 2) == "1000000000000")
        #expect(NumberText.data(0.1 + 0.2) == "0.3")
        #expect(NumberText.data(1200) == "1200")
        #expect(NumberText.data(2.5e-7) == "2.5e-07")
        #expect(NumberText.data(123_456_789_012) == "1.23456789e+11")
    }
}
