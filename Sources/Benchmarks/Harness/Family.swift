/// A workload family: its label (`a`, `a2`, ... `j`) and what runs it.
struct Family {
    let label: String
    let run: (BenchmarkContext) -> Void
}
