/// How `photo-feed` shows its results, decided from the options, the environment and which of
/// its standard streams are terminals: a pure function, so every rule is testable.
package struct DisplayPlan: Equatable, Sendable {
    /// Full screen (else plain text or JSON lines, printed).
    package let interactive: Bool
    /// Colours in the text.
    package let colors: Bool
    /// How thumbnails are drawn in the full screen.
    package let graphics: ThumbnailProtocol
    /// Why `graphics` draws nothing (`nil` when it draws).
    package let picturesOff: PicturesOff?
    /// `--verbose` lines go to a log file named on exit, since the full screen covers stderr.
    package let logsToFile: Bool
    /// Notes for stderr before anything runs (an option that does not apply, say).
    package let notes: [String]

    /// The plan for `options` in `environment`; `stdinIsTerminal` and the others say which
    /// standard streams are terminals.
    package init(options: ViewerOptions, environment: [String: String],
                 stdinIsTerminal: Bool, stdoutIsTerminal: Bool, stderrIsTerminal: Bool) {
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        let dumb = (environment["TERM"] ?? "").lowercased() == "dumb"
        colors = options.color && !noColor && stdoutIsTerminal && !dumb
        interactive = stdoutIsTerminal && stdinIsTerminal && !dumb && options.format == .automatic && options.pages == nil
        graphics = interactive ? ThumbnailProtocol.resolve(options.images, environment: environment, colors: options.color) : .none
        if graphics != .none {
            picturesOff = nil
        } else if options.images == .none {
            picturesOff = .asked
        } else if options.images == .auto && (!options.color || noColor) {
            picturesOff = .colorsOff
        } else {
            picturesOff = .terminal
        }
        logsToFile = interactive && options.verbose && stderrIsTerminal
        var notes: [String] = []
        if !interactive && options.images != .auto {
            notes.append("photo-feed: note: --images applies to the full screen only; this output is printed as text, without pictures")
        }
        self.notes = notes
    }
}
