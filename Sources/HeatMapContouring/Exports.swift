// `import HeatMapContouring` is enough for a client that computes contours:
// the values and the density it is made of come with it.
@_exported import HeatMapCore
@_exported import HeatMapDensity
