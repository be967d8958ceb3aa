import XCTest

/// Whether this build is instrumented by the thread sanitizer. Swift has no build condition of its
/// own for it, so the sanitizer pass defines one: `.ci/run` builds it with
/// `swift test --sanitize=thread -Xswiftc -DTHREAD_SANITIZER`.
public let isThreadSanitizerBuild: Bool = {
    #if THREAD_SANITIZER
    return true
    #else
    return false
    #endif
}()

/// Skips, under the thread sanitizer, a test that only computes on one thread (pixel arithmetic,
/// a corpus of files, property runs): it gives the sanitizer nothing to watch and runs several
/// times slower under it, and the plain run checks it. A test that starts a thread, a loop, a
/// server or a queue never calls this.
public func skipSingleThreadedComputationUnderThreadSanitizer() throws {
    if isThreadSanitizerBuild {
        throw XCTSkip("computes on one thread only: nothing for the thread sanitizer to watch (the plain run checks it)")
    }
}
