/// The exit status of `photo-feed`.
package enum ExitCode: Int32, Sendable {
    /// The feed was shown.
    case success = 0
    /// The feed could not be loaded.
    case failure = 1
    /// The command line was wrong.
    case usage = 2
}
