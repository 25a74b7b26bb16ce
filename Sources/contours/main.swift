import HeatMap
print("contours: not yet implemented")
