import Synchronization

/// One connection of a `Multicaster` to its source: it feeds the generation's subject until
/// disposed or until the source ends.
// @unchecked: `stopped` is atomic; the rest is immutable or a locked slot.
final class MulticastConnection<Subject: SubjectType>: Disposable, @unchecked Sendable {
    let multicaster: Multicaster<Subject>
    let generation: Multicaster<Subject>.Generation
    private let upstream = DisposableSlot()
    private let stopped = Atomic<Bool>(false)

    init(multicaster: Multicaster<Subject>, generation: Multicaster<Subject>.Generation) {
        self.multicaster = multicaster
        self.generation = generation
        Resources.increment()
    }

    deinit { Resources.decrement() }

    func start(_ source: Observable<Subject.Observer.Element>) {
        upstream.set(source.subscribe(handler: { self.on($0) }))
    }

    func on(_ event: Event<Subject.Observer.Element>) {
        guard !stopped.load(ordering: .acquiring) else { return }
        if event.isStopEvent {
            guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
            multicaster.retire(generation, connection: self)
            upstream.dispose()
        }
        generation.observer.on(event)
    }

    func dispose() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        multicaster.retire(generation, connection: self)
        upstream.dispose()
    }
}
