import EventLoopIO

/// Watches one connect attempt's socket for the kernel's outcome, so that the opener knows which
/// attempt finished.
final class AttemptWatcher: EventLoopHandler {
    private let opener: ConnectionOpener
    private let index: Int

    init(opener: ConnectionOpener, index: Int) {
        self.opener = opener
        self.index = index
    }

    func socketWritable() {
        opener.attemptFinished(index)
    }

    /// Registered for writing only.
    func socketReadable() {}
}
