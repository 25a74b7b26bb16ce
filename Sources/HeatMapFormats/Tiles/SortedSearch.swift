extension Array where Element == Double {
    /// In an ascending array, the index of the first element at least
    /// `target` (`count` if none is): a binary search, O(log n).
    func firstIndex(notBelow target: Double) -> Int {
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if self[mid] < target { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
