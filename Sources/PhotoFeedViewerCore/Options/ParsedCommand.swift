/// The outcome of parsing the command line.
package enum ParsedCommand: Equatable, Sendable {
    /// View the feed with these options.
    case run(ViewerOptions)
    /// Print the usage text and exit 0.
    case help
}
