import Foundation

/// The cache files in a directory with their sizes, least recently written first, so that a
/// byte limit removes the oldest: read from the directory once, then kept as files are written.
struct DiskUsage {
    private var files: LRUIndex<Int>

    /// The cache's files already in `directory`, oldest first by modification date.
    init(directory: URL) {
        files = LRUIndex(capacity: .max)
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
        let found = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys)) ?? []
        let described = found.filter { $0.pathExtension == CacheFileName.fileExtension }.map { file -> (String, Int, Date) in
            let values = try? file.resourceValues(forKeys: Set(keys))
            return (file.lastPathComponent, values?.fileSize ?? 0, values?.contentModificationDate ?? .distantPast)
        }
        for (name, size, _) in described.sorted(by: { $0.2 < $1.2 }) { files.set(size, forKey: name, cost: size) }
    }

    /// Records that `name` now holds `bytes`; returns the files to remove to stay within `limit`.
    mutating func wrote(_ name: String, bytes: Int, limit: Int) -> [String] {
        files.set(bytes, forKey: name, cost: bytes)
        var removed: [String] = []
        while files.totalCost > limit, let oldest = files.oldestKey {
            files.remove(oldest)
            removed.append(oldest)
        }
        return removed
    }

    mutating func remove(_ name: String) {
        files.remove(name)
    }
}
