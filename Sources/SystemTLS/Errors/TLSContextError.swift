/// What making a `TLSClientContext` or `TLSServerContext` throws: `TLSFailure`, whose
/// `.unavailable` and `.invalidConfiguration` cases were this type's.
@available(*, deprecated, renamed: "TLSFailure", message: "contexts throw TLSFailure; its .unavailable and .invalidConfiguration cases are this type's")
public typealias TLSContextError = TLSFailure
