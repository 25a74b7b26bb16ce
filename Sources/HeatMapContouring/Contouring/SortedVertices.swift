import HeatMapCore
import HeatMapDensity

extension Array where Element == Int32 {
    /// In an ascending array of vertex indices, the position of the first
    /// at or above `v` (the count when none is). O(log count).
    func firstPosition(notBelow v: Int) -> Int {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if Int(self[mid]) < v { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
