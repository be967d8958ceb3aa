// libFuzzer entry for `FeedSanitizer.sanitize` and `Photo.decode(feed:)`; the invariants it
// checks are `FeedOracle`'s (FeedOracle.swift). `scripts/fuzz.sh feed` builds it with
// `-sanitize=fuzzer,address` and `-parse-as-library`, so libFuzzer supplies `main`. A plain
// `swift build` links an executable that does nothing.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFeedSanitizer(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    if let violation = FeedOracle.violations(of: Data(bytes: bytes, count: count)).first {
        fatalError(violation.description)
    }
    return 0
}
