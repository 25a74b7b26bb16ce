import HeatMap
print("{}")
