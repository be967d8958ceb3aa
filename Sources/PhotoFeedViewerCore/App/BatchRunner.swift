import Dispatch
import Locking
import PhotoFeed
import Reactive
import Synchronization

/// `--pages`, `--plain`, `--json` and non-terminal output: load pages, print each new section
/// as it arrives, exit. With `--watch`, keep loading on the interval (until `--pages` loads, if given).
package struct BatchRunner: Sendable {
    /// How sections are printed.
    package enum Format: Sendable {
        /// `PlainRenderer`.
        case plain
        /// `JSONLinesRenderer`.
        case json
    }

    /// The session loading the feed.
    package let session: FeedSession
    /// The parsed command line: which feed, how many pages, whether to watch.
    package let options: ViewerOptions
    /// How sections are printed.
    package let format: Format
    /// The style of plain output.
    package let style: TextStyle
    /// Receives each output line.
    package let output: @Sendable (String) -> Void
    /// Receives each error line.
    package let errorOutput: @Sendable (String) -> Void

    /// A runner printing through `output` and `errorOutput`.
    package init(session: FeedSession, options: ViewerOptions, format: Format, style: TextStyle,
                output: @escaping @Sendable (String) -> Void, errorOutput: @escaping @Sendable (String) -> Void) {
        self.session = session
        self.options = options
        self.format = format
        self.style = style
        self.output = output
        self.errorOutput = errorOutput
    }

    /// Runs to the end and returns the exit code: 1 on the first failed load.
    package func run() -> ExitCode {
        let printed = Lock(0)
        let finished = DispatchSemaphore(value: 0)
        let outcome = Lock(ExitCode.success)
        let request = options.request
        let loads: Observable<Result<Photo, any Error>>
        if let period = options.watch {
            let watched = session.store.watchedLoads(every: period, scheduler: ConcurrentDispatchQueueScheduler(qos: .userInitiated),
                                                     startImmediately: true) { request }
            loads = options.pages.map { watched.take($0) } ?? watched
        } else {
            let pages = options.pages ?? 1
            loads = Observable.range(start: 0, count: pages).concatMap { [session] _ in session.store.loadResult(request) }
        }
        let subscription = SingleAssignmentDisposable()
        subscription.setDisposable(loads.subscribe(onNext: { [self] result in
            switch result {
            case .success:
                printNewSections(printed: printed)
            case .failure(let error):
                errorOutput("photo-feed: " + ErrorMessage.text(for: error, host: session.host))
                outcome.withLock { $0 = .failure }
                subscription.dispose()
                finished.signal()
            }
        }, onCompleted: {
            finished.signal()
        }))
        finished.wait()
        subscription.dispose()
        return outcome.withLock { $0 }
    }

    private func printNewSections(printed: borrowing Lock<Int>) {
        let sections = session.store.sections.value
        let fresh = printed.withLock { count -> [(Int, PhotoSection)] in
            defer { count = max(count, sections.count) }
            guard sections.count > count else { return [] }
            return (count..<sections.count).map { ($0 + 1, sections[$0]) }
        }
        for (number, section) in fresh {
            switch format {
            case .plain: PlainRenderer.lines(for: section, number: number, style: style, local: session.localNote).forEach(output)
            case .json: JSONLinesRenderer.lines(for: section, number: number, local: session.localNote).forEach(output)
            }
        }
    }
}
