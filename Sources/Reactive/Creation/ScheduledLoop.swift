import Locking
extension Observable where Element: Sendable {
    /// An observable that emits one event per action scheduled on `scheduler`, each made by
    /// `step` from the subscription's own state, until a terminal event: the scheduler forms of
    /// `just`, `of`, `from`, `range`, `empty`, `error`, `repeatElement` and `generate`.
    static func scheduledLoop<State>(
        on scheduler: any SchedulerType, initialState: @escaping @Sendable () -> State,
        step: @escaping @Sendable (inout State) -> Event<Element>
    ) -> Observable<Element> {
        Observable { observer in
            let sink = ScheduledLoopSink(downstream: observer, scheduler: scheduler, state: initialState(), step: step)
            sink.scheduleStep()
            return sink
        }
    }
}

/// Runs one step per scheduled action, so a virtual-time scheduler sees each event as its own
/// action (RxSwift's recursive scheduling). A scheduler that runs the action before
/// `schedule` returns (immediate, or a trampoline not yet running) makes the loop go round
/// again instead of recursing, so long sequences do not grow the stack.
///
/// The state lives in `loop` between runs: a run takes it out as it enters and puts it back as
/// it leaves, so a run on another thread sees the last one's steps through the lock (and the
/// thread sanitizer sees that order too) without `step` ever running under the lock.
// @unchecked: `loop` (a Lock) holds the state and lets one `run` at a time take steps;
// `pending` is a locked serial disposable.
final class ScheduledLoopSink<Element: Sendable, State>: Sink<Element>, @unchecked Sendable {
    // @unchecked: `state` only moves in and out under the lock, to the one run that holds it.
    private struct Loop: @unchecked Sendable {
        var running = false
        var again = false
        var state: State?
    }

    private let scheduler: any SchedulerType
    private let step: @Sendable (inout State) -> Event<Element>
    private let pending = SerialDisposable()
    private let loop: Lock<Loop>

    init(
        downstream: AnyObserver<Element>, scheduler: any SchedulerType, state: State,
        step: @escaping @Sendable (inout State) -> Event<Element>
    ) {
        self.scheduler = scheduler
        self.step = step
        loop = Lock(Loop(state: state))
        super.init(downstream: downstream)
    }

    func scheduleStep() {
        guard !pending.isDisposed else { return }
        pending.disposable = scheduler.schedule { [weak self] in self?.run() }
    }

    private func run() {
        let entered: State? = loop.withLock { loop in
            guard !loop.running else {
                loop.again = true
                return nil
            }
            loop.running = true
            return loop.state.take()
        }
        guard var state = entered else { return }
        repeat {
            guard !pending.isDisposed else { return }
            let event = step(&state)
            if event.isStopEvent {
                forwardTerminal(event)
                return
            }
            downstream.on(event)
            scheduleStep()
        } while loop.withLock { [state] loop in
            if loop.again {
                loop.again = false
                return true
            }
            loop.running = false
            loop.state = state
            return false
        }
    }

    override func dispose() {
        super.dispose()
        pending.dispose()
    }
}
