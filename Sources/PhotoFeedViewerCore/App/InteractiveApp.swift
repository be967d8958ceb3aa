import Dispatch
import Foundation
import PhotoFeed
import Reactive
import Synchronization

/// The full-screen viewer: loads through the session's store, redraws on every change,
/// resize and spinner tick, handles keys through ``ScreenModel``, and restores the terminal
/// however it ends (`q`, Ctrl-C, end of input, a termination signal).
public final class InteractiveApp: Sendable {
    private let session: FeedSession
    private let terminal: TerminalController
    private let style: TextStyle
    private let watch: Duration?
    private let ui = DispatchQueue(label: "photo-feed.ui")
    private let model: Mutex<ScreenModel>
    private let decoder = Mutex(KeyDecoder())
    private let subscriptions = DisposeBag()
    private let finished = DispatchSemaphore(value: 0)
    private let exitCode = Mutex<ExitCode?>(nil)

    /// A viewer of `session` on `terminal`.
    public init(session: FeedSession, options: ViewerOptions, terminal: TerminalController, style: TextStyle) {
        self.session = session
        self.terminal = terminal
        self.style = style
        self.watch = options.watch
        var state = ScreenState(request: options.request, sourceLabel: session.sourceLabel)
        state.watchInterval = options.watch
        self.model = Mutex(ScreenModel(state: state))
    }

    /// Runs until the user quits; returns the exit code.
    public func run() -> ExitCode {
        terminal.start()
        terminal.onSignals([SIGINT, SIGTERM, SIGHUP], queue: ui) { [self] _ in quit(.failure) }
        terminal.onSignals([SIGWINCH], queue: ui) { [self] _ in redraw() }

        subscriptions.insert(session.store.sections.subscribe(onNext: { [self] sections in
            ui.async { [self] in
                let size = terminal.size()
                model.withLock {
                    $0.state.sections = sections
                    $0.clampScroll(width: size.width, height: size.height)
                }
                redraw()
            }
        }))
        subscriptions.insert(session.store.changes.subscribe(onNext: { [self] change in
            let added = change.insertedItems.count
            ui.async { [self] in
                model.withLock { $0.state.lastChange = added > 0 ? "+\(added) photos" : nil }
                redraw()
            }
        }))
        let spinner = DispatchSource.makeTimerSource(queue: ui)
        spinner.schedule(deadline: .now() + .milliseconds(120), repeating: .milliseconds(120))
        spinner.setEventHandler { [self] in
            guard session.activity.inFlightCount > 0 else { return }
            model.withLock { $0.state.spinnerFrame += 1 }
            redraw()
        }
        spinner.resume()

        terminal.readKeys({ [self] bytes in
            ui.async { [self] in
                let keys = decoder.withLock { $0.feed(bytes) }
                keys.forEach(handle)
            }
        }, onEnd: { [self] in
            ui.async { [self] in quit(.success) }
        })

        if let watch {
            subscriptions.insert(session.store.watchedLoads(every: watch, scheduler: SerialDispatchQueueScheduler(queue: ui)) { [self] in
                model.withLock { $0.state.request }
            }.subscribe(onNext: { [self] result in
                ui.async { [self] in show(result) }
            }))
        }
        ui.async { [self] in
            redraw()
            load(reset: false)
        }

        finished.wait()
        spinner.cancel()
        subscriptions.disposeAll()
        terminal.restore()
        return exitCode.withLock { $0 } ?? .success
    }

    /// Runs on `ui`.
    private func handle(_ key: Key) {
        let size = terminal.size()
        let command = model.withLock { $0.handle(key, width: size.width, height: size.height) }
        switch command {
        case .quit:
            quit(.success)
            return
        case .loadMore:
            load(reset: false)
        case .reload:
            load(reset: true)
        case .changeTags(let tags):
            model.withLock { $0.state.request.tags = tags }
            load(reset: true)
        case nil:
            break
        }
        redraw()
    }

    /// Runs on `ui`.
    private func load(reset: Bool) {
        let request = model.withLock { model -> PhotoRequest in
            if reset { model.state.scroll = 0 }
            return model.state.request
        }
        if reset { session.store.reset() }
        subscriptions.insert(session.store.load(request).subscribe { [self] result in
            ui.async { [self] in show(result) }
        })
        redraw()
    }

    /// Runs on `ui`.
    private func show(_ result: Result<Photo, any Error>) {
        let host = session.host
        model.withLock { model in
            switch result {
            case .success: model.state.errorMessage = nil
            case .failure(let error): model.state.errorMessage = ErrorMessage.text(for: error, host: host)
            }
        }
        redraw()
    }

    /// Runs on `ui`.
    private func redraw() {
        guard exitCode.withLock({ $0 }) == nil else { return }
        let size = terminal.size()
        var state = model.withLock { $0.state }
        state.inFlight = session.activity.inFlightCount
        terminal.draw(ScreenRenderer.lines(for: state, width: size.width, height: size.height, style: style))
    }

    private func quit(_ code: ExitCode) {
        let first = exitCode.withLock { current -> Bool in
            guard current == nil else { return false }
            current = code
            return true
        }
        if first { finished.signal() }
    }
}
