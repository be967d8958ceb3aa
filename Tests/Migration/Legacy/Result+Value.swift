import Networking

// Moya 13's `Result` (from the Result package) had `value` and `error`; Swift's has `get()`.
// This keeps `result.value` and `result.error` building while the call sites move to `get()`.
extension Result {
    var value: Success? { try? get() }

    var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
