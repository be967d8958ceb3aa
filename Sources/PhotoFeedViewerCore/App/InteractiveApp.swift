import Dispatch
import Foundation
import Locking
import PhotoFeed
import Reactive
import Synchronization

/// The full-screen viewer: loads through the session's store, redraws on every change,
/// resize, thumbnail and spinner tick, handles keys through ``ScreenModel``, loads the
/// thumbnails of the photos on screen (cancelling those scrolled away), and restores the
/// terminal however it ends (`q`, Ctrl-C, end of input, a termination signal).
package final class InteractiveApp: Sendable {
    private let session: FeedSession
    private let terminal: TerminalController
    private let style: TextStyle
    private let graphics: ThumbnailProtocol
    private let opener: PhotoOpener
    private let watch: Duration?
    private let ui = DispatchQueue(label: "photo-feed.ui")
    private let model: Lock<ScreenModel>
    private let decoder = Lock(EditingKeyDecoder())
    private let subscriptions = DisposeBag()
    private let loads = RunningLoads()
    private let board: Lock<ThumbnailBoard?> = Lock(nil)
    /// The full-size picture of the photo previewed with `p`.
    private let previewBoard: Lock<ThumbnailBoard?> = Lock(nil)
    private let finished = DispatchSemaphore(value: 0)
    private let exitCode = Lock<ExitCode?>(nil)

    /// A viewer of `session` on `terminal`, drawing thumbnails as `graphics` says (and saying
    /// why there are none, as `picturesOff` does) and opening photos' pages with `opener`.
    package init(session: FeedSession, options: ViewerOptions, terminal: TerminalController, style: TextStyle,
                graphics: ThumbnailProtocol = .none, picturesOff: PicturesOff = .terminal, opener: PhotoOpener = .system(environment: [:])) {
        self.session = session
        self.terminal = terminal
        self.style = style
        self.graphics = graphics
        self.opener = opener
        self.watch = options.watch
        var state = ScreenState(request: options.request, sourceLabel: session.sourceLabel)
        state.watchInterval = options.watch
        state.imagesAvailable = graphics != .none
        state.imagesEnabled = graphics != .none
        state.picturesOff = picturesOff
        self.model = Lock(ScreenModel(state: state))
    }

    /// Feed loads still running (each is released when it answers).
    package var runningLoadCount: Int { loads.count }

    /// Runs until the user quits; returns the exit code.
    package func run() -> ExitCode {
        terminal.start()
        terminal.onSignals([SIGINT, SIGTERM, SIGHUP], queue: ui) { [self] _ in quit(.failure) }
        terminal.onSignals([SIGWINCH], queue: ui) { [self] _ in redraw() }
        // The largest list box is 30 x 10 cells: 30 x 20 half-block pixels, or 240 x 160 at 8 x 16 pixels a cell.
        let maxPixelSize: Int
        if case .halfBlocks = graphics { maxPixelSize = 48 } else { maxPixelSize = 240 }
        board.withLock {
            $0 = ThumbnailBoard(loader: session.thumbnails, maxPixelSize: maxPixelSize) { [self] in
                ui.async { [self] in redraw() }
            }
        }
        previewBoard.withLock {
            $0 = ThumbnailBoard(loader: session.thumbnails, maxPixelSize: Self.previewPixelSize) { [self] in
                ui.async { [self] in redraw() }
            }
        }

        subscriptions.insert(session.store.sections.subscribe(onNext: { [self] sections in
            ui.async { [self] in
                let size = terminal.size()
                model.withLock { $0.sectionsChanged(sections, width: size.width, height: size.height) }
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
        loads.disposeAll()
        board.withLock { $0 }?.close()
        previewBoard.withLock { $0 }?.close()
        if graphics == .kitty { terminal.write(KittyImageRenderer.clearPlacements) }
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
            model.withLock {
                $0.state.request.tags = tags
                $0.state.reloading = true
            }
            load(reset: true)
        case .open(let photo):
            open(photo)
        case .copyLink(let photo):
            terminal.write("\u{1B}]52;c;\(Data(photo.link.utf8).base64EncodedString())\u{7}")
            model.withLock { $0.state.notice = "Copied the link of \"\(PhotoText.title(photo))\"" }
        case nil:
            break
        }
        redraw()
    }

    /// Runs on `ui`.
    private func open(_ photo: Photo.Item) {
        let link = PhotoText.link(photo)
        let notice: String
        if let url = URL(string: photo.link), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            switch opener.open(url) {
            case .opened(let program): notice = "Opened \(link) (\(program))"
            case .unavailable: notice = "Open in a browser: \(link)"
            }
        } else {
            notice = "Not a web address: \(link)"
        }
        model.withLock { $0.state.notice = notice }
    }

    /// Runs on `ui`. A reset keeps the old photos on screen (`reloading`) until the new ones arrive.
    private func load(reset: Bool) {
        let request = model.withLock { model -> PhotoRequest in
            if reset { model.state.reloading = true }
            return model.state.request
        }
        if reset { session.store.reset() }
        loads.run(session.store.load(request)) { [self] result in
            ui.async { [self] in show(result) }
        }
        redraw()
    }

    /// Runs on `ui`.
    private func show(_ result: Result<Photo, any Error>) {
        let host = session.host
        model.withLock { model in
            switch result {
            case .success:
                model.state.errorMessage = nil
                model.loadFinished(succeeded: true)
            case .failure(let error):
                model.state.errorMessage = ErrorMessage.text(for: error, host: host)
                model.loadFinished(succeeded: false)
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
        let board = self.board.withLock { $0 }
        if state.imagesEnabled {
            board?.show(ScreenRenderer.visiblePhotos(state, width: size.width, height: size.height))
        } else {
            board?.show([])
        }
        let cells = board?.cells ?? [:]
        let previewBoard = self.previewBoard.withLock { $0 }
        let previewed = state.previewing ? state.selectedPhoto : nil
        previewBoard?.show(previewed.map { [$0] } ?? [])
        let preview = previewed.flatMap { previewBoard?.cells[$0.media.m] }
        terminal.draw(ScreenRenderer.lines(for: state, width: size.width, height: size.height, style: style,
                                           thumbnails: cells, graphics: graphics, preview: preview))
        let placements = ScreenRenderer.placements(for: state, width: size.width, height: size.height, thumbnails: cells,
                                                   preview: preview)
        let overlay = ThumbnailPlacement.overlay(placements, graphics: graphics)
        if !overlay.isEmpty { terminal.write(overlay) }
    }

    /// The longer side of a previewed picture, in pixels: the demo's pictures and Flickr's `_m`
    /// files are smaller, so they arrive whole.
    private static let previewPixelSize = 1_024

    private func quit(_ code: ExitCode) {
        let first = exitCode.withLock { current -> Bool in
            guard current == nil else { return false }
            current = code
            return true
        }
        if first { finished.signal() }
    }
}
