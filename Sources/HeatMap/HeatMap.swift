// The umbrella module: `import HeatMap` brings every layer of the library.
@_exported import HeatMapContouring
@_exported import HeatMapCore
@_exported import HeatMapDensity
@_exported import HeatMapFormats
