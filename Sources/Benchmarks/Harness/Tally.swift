/// An accumulator for one synchronous workload, touched from the thread running it only.
// @unchecked: each instance is created, mutated and read on one thread, inside one timed run.
final class Tally: @unchecked Sendable {
    var value = 0

    @inline(never)
    func add(_ x: Int) { value &+= x }
}
