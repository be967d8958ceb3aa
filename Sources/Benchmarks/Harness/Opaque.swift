/// Hides a value from the optimizer so closures and sizes stay opaque at compile time.
@inline(never)
func opaque<T>(_ value: T) -> T { value }
