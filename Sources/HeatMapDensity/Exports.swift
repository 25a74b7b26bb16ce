// The core values every density call takes come with `import HeatMapDensity`.
@_exported import HeatMapCore
