/// The engine behind the traits' fixed-arity `zip`s: the sources zipped pairwise, in order,
/// into one array of their type-erased elements. For sequences of at most one element this
/// keeps `Observable.zip`'s contract of one flat `zip`: it answers once every source has, ends
/// empty when an empty source leaves nothing to pair, and fails at the first failure.
enum TraitZip {
    static func zipAll(_ sources: [Observable<Any>]) -> Observable<[Any]> {
        guard let first = sources.first else { return .just([]) }
        var zipped = first.map { [$0] }
        for next in sources.dropFirst() {
            zipped = Observable.zip(zipped, next) { $0 + [$1] }
        }
        return zipped
    }
}

/// Recovers an element that `TraitZip` erased to `Any`; the types match by construction.
@inline(__always)
func unerase<Value>(_ value: Any) -> Value {
    // `zipAll` keeps each source's elements at that source's index, and each caller reads
    // index i as the type of its i-th source.
    value as! Value
}

extension Single {
    /// The source with its element erased to `Any`, for `TraitZip`.
    var erased: Observable<Any> { source.map { $0 as Any } }
}

extension Maybe {
    /// The source with its element erased to `Any`, for `TraitZip`.
    var erased: Observable<Any> { source.map { $0 as Any } }
}
