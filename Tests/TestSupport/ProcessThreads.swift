import Foundation

/// The process's threads, counted in `/proc/self/task` (nil where that does not exist).
public enum ProcessThreads {
    /// Threads of this process now, or nil where `/proc/self/task` does not exist.
    public static func count() -> Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task"))?.count
    }
}
