/// Which threads run an event loop, kept where every module of the package can read it:
/// `EventLoopIO` marks each loop's thread with its loop, and code that would wait synchronously
/// (`ReactiveBlocking`'s `toBlocking()`) checks it without depending on the loops. A loop's
/// thread that waits for an answer only that loop can bring waits forever.
package enum LoopThreadMark {
    /// The loop (retained, released when the thread ends) on a loop's thread; nil elsewhere.
    package static let key = ThreadSpecificKey()

    /// Whether the calling thread runs an event loop.
    @inlinable
    package static var isSet: Bool { key.value != nil }
}
