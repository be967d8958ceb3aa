import Foundation

/// The process's resident memory, read from `/proc/self/statm` (nil elsewhere).
public enum ResidentMemory {
    /// Resident bytes now, or nil where `/proc/self/statm` does not exist.
    public static func current() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
