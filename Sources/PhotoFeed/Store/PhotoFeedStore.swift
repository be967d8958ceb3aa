import Foundation
import Locking
import Networking
import Reactive
import Synchronization

/// The growing list of photo sections a viewer shows: each successful ``load(_:)`` appends one
/// section of the photos not shown yet, and publishes the new list and its ``Changeset``.
///
/// ```swift
/// let store = PhotoFeedStore(provider: NetworkProvider<FlickrAPI>())
/// store.changes.subscribe(onNext: { changeset in render(changeset) })
/// store.load(PhotoRequest(tags: "cats")).subscribe(onFailure: { showBanner($0) })
/// ```
///
/// Loads run one at a time in the order they are subscribed (a later load waits until the
/// earlier one answered), so none is lost and de-duplication sees every earlier section.
public final class PhotoFeedStore: Sendable {
    /// The sections shown so far, oldest first; owned by the store (write through ``load(_:)`` and ``reset()``).
    public let sections: BehaviorRelay<[PhotoSection]>
    /// The provider the feed is requested through.
    public let provider: NetworkProvider<FlickrAPI>
    /// Whether a load leaves out photos already shown (by `link`).
    public let deduplicates: Bool

    private let changeRelay = PublishRelay<Changeset>()
    /// Each load's turn, run one at a time in order by `merge(maxConcurrent: 1)`.
    private let turns = PublishSubject<Observable<Never>>()
    private let runningTurns: any Disposable
    private let state = Lock(State())

    private struct Publication {
        let sections: [PhotoSection]
        let changeset: Changeset
    }

    private struct State {
        var sections: [PhotoSection] = []
        var shownLinks: Set<String> = []
        var outbox: [Publication] = []
        var publishing = false
        /// Bumped by `reset()`: a load that started before a reset answers, but appends nothing.
        var generation = 0
    }

    /// A store requesting through `provider`; `deduplicates` leaves out photos already shown.
    public init(provider: NetworkProvider<FlickrAPI>, deduplicates: Bool = true) {
        self.provider = provider
        self.deduplicates = deduplicates
        self.sections = BehaviorRelay(value: [])
        self.runningTurns = turns.merge(maxConcurrent: 1).subscribe()
    }

    deinit {
        runningTurns.dispose()
    }

    /// The change of every update of ``sections``, in order, sent after `sections` has the new list.
    public var changes: Observable<Changeset> { changeRelay.asObservable() }

    /// Loads one feed page and appends a section of its new photos (none when nothing is new).
    ///
    /// Succeeds with the whole decoded page. Fails with the classified `APIError` (no
    /// connection, timeout, HTTP status; `.empty` for an empty body) or a ``PhotoFeedError``
    /// when the body is not a feed; a failed load changes nothing. Disposing a load cancels it,
    /// or removes it from the queue if it has not started.
    public func load(_ pageRequest: PhotoRequest = PhotoRequest()) -> Single<Photo> {
        Single.create { [self] observer in
            // The turn ends (the next load starts) once, when `request` is disposed: after the
            // answer, or on the load's dispose. A dispose that comes while another thread is still
            // sending the request finds `request` unset, so that thread cancels the request, then
            // ends the turn, when it sets it.
            let request = SingleAssignmentDisposable()
            turns.onNext(Observable<Never>.create { [self] turn in
                guard !request.isDisposed else {
                    turn.onCompleted()
                    return Disposables.create()
                }
                let generation = state.withLock { $0.generation }
                let sent = fetch(pageRequest).subscribe { [self] result in
                    if case .success(let photo) = result {
                        append(photo.items, ifGeneration: generation)
                    }
                    observer(result)
                    request.dispose()
                }
                request.setDisposable(Disposables.create {
                    sent.dispose()
                    turn.onCompleted()
                })
                return Disposables.create()
            })
            return request
        }
    }

    /// The request pipeline of one page, without touching the sections: `rx.classifiedRequest`
    /// (`rx.request` -> `filterSuccessfulStatusCodes()` -> `classifyErrors()`) -> ``Photo/decode(feed:)``.
    public func fetch(_ request: PhotoRequest = PhotoRequest()) -> Single<Photo> {
        provider.rx.classifiedRequest(.publicPhotos(request))
            .map { response in
                guard !response.data.isEmpty else { throw APIError.empty }
                return try Photo.decode(feed: response.data)
            }
    }

    /// Removes every section (publishing the change when there was any); later loads show every photo
    /// again, and a load already in flight still answers its caller but appends nothing.
    public func reset() {
        commit { state in
            state.generation += 1
            guard !state.sections.isEmpty else { return nil }
            state.shownLinks.removeAll()
            return []
        }
    }

    /// Appends a section of `items` (only the new ones when de-duplicating); returns whether it did.
    @discardableResult
    func append(_ items: [Photo.Item], ifGeneration generation: Int? = nil) -> Bool {
        commit { [deduplicates] state in
            if let generation, generation != state.generation { return nil }
            let shown: [Photo.Item]
            if deduplicates {
                shown = items.filter { state.shownLinks.insert($0.link).inserted }
            } else {
                shown = items
            }
            guard !shown.isEmpty else { return nil }
            return state.sections + [.result(shown.map(PhotoSectionItem.result))]
        }
    }

    /// Applies `update` (which returns the new sections, or `nil` for no change) under the
    /// lock, then publishes in commit order, outside the lock, on whichever thread gets there first.
    /// Hand-written because a relay's order is the order of `accept` calls, not of commits, and
    /// Reactive's own outbox (the same loop) is internal to its sinks.
    @discardableResult
    private func commit(_ update: (inout State) -> [PhotoSection]?) -> Bool {
        let outcome = state.withLock { state -> (changed: Bool, publishes: Bool) in
            guard let updated = update(&state) else { return (false, false) }
            let changeset = Changeset(from: state.sections, to: updated)
            state.sections = updated
            state.outbox.append(Publication(sections: updated, changeset: changeset))
            guard !state.publishing else { return (true, false) }
            state.publishing = true
            return (true, true)
        }
        if outcome.publishes { publishOutbox() }
        return outcome.changed
    }

    private func publishOutbox() {
        while let publication = state.withLock({ state -> Publication? in
            guard !state.outbox.isEmpty else {
                state.publishing = false
                return nil
            }
            return state.outbox.removeFirst()
        }) {
            sections.accept(publication.sections)
            changeRelay.accept(publication.changeset)
        }
    }
}
