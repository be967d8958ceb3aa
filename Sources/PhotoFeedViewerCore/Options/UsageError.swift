/// A mistake on the command line; `photo-feed` prints it with the usage text and exits 2.
package struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, e.g. `--pages needs a whole number of at least 1, got "x"`.
    package let message: String

    /// A usage error; `photo-feed` prints `message` with a hint to `--help`, then exits with 2.
    package init(_ message: String) {
        self.message = message
    }

    /// The message alone, without the usage text.
    package var description: String { message }
}
