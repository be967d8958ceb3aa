import CMallocInfo
import Foundation

/// Process memory figures: peak resident set, current resident set and the allocator's live bytes.
enum ResourceUsage {
    /// Peak resident set size in KiB (`getrusage`, `ru_maxrss`).
    static var peakResidentKiB: Int { SystemLibrary.peakResidentKiB }

    /// Bytes currently handed out by malloc (glibc's `mallinfo2().uordblks`, Darwin's zone statistics; 0 elsewhere).
    static var allocatedBytes: Int {
        Int(cmallocinfo_allocated_bytes())
    }

    /// Allocations the process has made (on every thread) since the first reading; nil in a build
    /// without a sanitizer, whose allocation hooks do the counting (`--sanitize=address`).
    static var allocationCount: Int? {
        cmallocinfo_count_allocations() == 1 ? Int(cmallocinfo_allocation_count()) : nil
    }

    /// The processor time the process has used so far (user and system, every thread), in seconds.
    static var processCPUSeconds: Double { SystemLibrary.processCPUSeconds }

    /// The 1-minute load average, from `/proc/loadavg`: figures taken above the core count are noisy.
    static var loadAverage: String {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "?" }
        return text.split(separator: " ").first.map(String.init) ?? "?"
    }

    /// Current resident set size in bytes, from `/proc/self/statm`.
    static var residentBytes: Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count >= 2, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
