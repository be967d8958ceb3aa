import CMallocInfo

/// Bytes the process's allocator has handed out and not yet got back (glibc's `mallinfo2`, the
/// sanitizer's own count under TSan or ASan, the default zone on Darwin); nil where the
/// platform has no such count (musl).
public enum HeapBytes {
    /// Bytes in use now, or nil where they cannot be read.
    public static func current() -> Int? {
        let bytes = Int(cmallocinfo_allocated_bytes())
        return bytes > 0 ? bytes : nil
    }
}
