/// Nanoseconds of CPU time the calling thread has used (`CLOCK_THREAD_CPUTIME_ID`): on a machine
/// shared with other work it leaves out the time the thread waited for a core, which wall time
/// counts. Right for the single-threaded workloads only.
enum ThreadCPUClock {
    static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }
}
