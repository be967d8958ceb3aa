import Dispatch
import ImageDecoding
import Locking
import PhotoFeed
import Reactive

/// The thumbnails of the photos on screen: `show(_:)` starts a load for each newly visible
/// photo (top first) and cancels the loads of photos no longer visible; `cells` is what the
/// renderer draws. Finished pictures of photos that scrolled away are forgotten here (the
/// loader's memory cache answers at once when they come back).
package final class ThumbnailBoard: Sendable {
    private enum Entry {
        case loading(any Disposable)
        case done(ThumbnailCell)
    }

    private struct State {
        var entries: [String: Entry] = [:]
        /// Media URLs in the order their loads started.
        var started: [String] = []
        var requested = 0
        var cancelled = 0
        var closed = false
    }

    private let loader: ThumbnailLoader?
    private let maxPixelSize: Int
    private let onChange: @Sendable () -> Void
    private let state = Lock(State())

    /// A board loading through `loader` (`nil`: every box says `offline`) at `maxPixelSize`,
    /// calling `onChange` (on the loader's threads) whenever a picture arrives or fails.
    package init(loader: ThumbnailLoader?, maxPixelSize: Int, onChange: @escaping @Sendable () -> Void) {
        self.loader = loader
        self.maxPixelSize = maxPixelSize
        self.onChange = onChange
    }

    /// What each media URL's box shows now.
    package var cells: [String: ThumbnailCell] {
        state.withLock { state in
            state.entries.mapValues { entry in
                if case .done(let cell) = entry { return cell }
                return .loading
            }
        }
    }

    /// Loads started so far, and how many of them were cancelled because their photo left the screen.
    package var counts: (started: Int, cancelled: Int) { state.withLock { ($0.requested, $0.cancelled) } }

    /// Loads running now.
    package var runningCount: Int {
        state.withLock { $0.entries.values.filter { if case .loading = $0 { true } else { false } }.count }
    }

    /// Makes `photos` (top first) the ones on screen.
    package func show(_ photos: [Photo.Item]) {
        let wantedSet = Set(photos.map(\.media.m))
        let (cancelled, toStart) = state.withLock { state -> ([any Disposable], [Photo.Item]) in
            guard !state.closed else { return ([], []) }
            var cancelled: [any Disposable] = []
            // newest first, so loads still waiting for a slot go before running ones free theirs
            for url in state.started.reversed() where !wantedSet.contains(url) {
                if case .loading(let subscription)? = state.entries[url] {
                    cancelled.append(subscription)
                    state.cancelled += 1
                }
                state.entries[url] = nil
            }
            state.started.removeAll { !wantedSet.contains($0) }
            state.entries = state.entries.filter { wantedSet.contains($0.key) }
            var toStart: [Photo.Item] = []
            for photo in photos where state.entries[photo.media.m] == nil && !toStart.contains(where: { $0.media.m == photo.media.m }) {
                toStart.append(photo)
            }
            return (cancelled, toStart)
        }
        cancelled.forEach { $0.dispose() }
        for photo in toStart { start(photo) }
    }

    /// Cancels every load; the board shows nothing more.
    package func close() {
        let running = state.withLock { state -> [any Disposable] in
            state.closed = true
            defer { state.entries.removeAll() }
            return state.entries.values.compactMap { if case .loading(let subscription) = $0 { subscription } else { nil } }
        }
        running.forEach { $0.dispose() }
    }

    private func start(_ photo: Photo.Item) {
        let url = photo.media.m
        guard let loader else {
            state.withLock { $0.entries[url] = .done(.failed("offline")) }
            return
        }
        let slot = SingleAssignmentDisposable()
        let admitted = state.withLock { state -> Bool in
            guard !state.closed, state.entries[url] == nil else { return false }
            state.entries[url] = .loading(slot)
            state.started.append(url)
            state.requested += 1
            return true
        }
        guard admitted else { return }
        slot.setDisposable(loader.thumbnail(for: photo, maxPixelSize: maxPixelSize).subscribe { [self] result in
            let cell: ThumbnailCell
            switch result {
            case .success(let image): cell = .loaded(image)
            case .failure(let error): cell = .failed(ThumbnailFailure.word(for: error))
            }
            let changed = state.withLock { state -> Bool in
                guard case .loading? = state.entries[url] else { return false }
                state.entries[url] = .done(cell)
                return true
            }
            if changed { onChange() }
        })
    }
}
