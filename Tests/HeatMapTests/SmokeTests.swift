import Testing

@testable import HeatMapContouring
@testable import HeatMapCore
@testable import HeatMapDensity
@testable import HeatMapFormats

@Test func configurationClampsLikeTheApplePackage() {
    let c = HeatMapConfiguration(radius: -5, contourLevels: 0, gridResolution: 1, paddingFactor: -1, fillOpacity: 3)
    #expect(c.radius == 1)
    #expect(c.contourLevels == 1)
    #expect(c.gridResolution == 2)
    #expect(c.paddingFactor == 0)
    #expect(c.fillOpacity == 1)
}
