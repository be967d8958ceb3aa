extension Observable {
    /// Makes a resource for each subscription, subscribes to the observable
    /// `observableFactory` builds with it, and disposes the resource after that subscription
    /// ends (terminal event or dispose). A throw of either factory becomes `.error`.
    ///
    /// ```swift
    /// Observable.using({ FileHandleDisposable(path) }, observableFactory: { $0.lines })
    /// ```
    public static func using<Resource: Disposable>(
        _ resourceFactory: @escaping @Sendable () throws -> Resource,
        observableFactory: @escaping @Sendable (Resource) throws -> Observable<Element>
    ) -> Observable<Element> {
        Observable { observer in
            let sink = UsingSink(downstream: observer)
            do {
                let resource = try resourceFactory()
                sink.resource.setDisposable(resource)
                let source = try observableFactory(resource)
                sink.upstream.set(source.subscribe(handler: { sink.on($0) }))
            } catch {
                sink.on(.error(error))
            }
            return sink
        }
    }
}

// @unchecked: state is touched only on the serialized event path; `resource` is a locked slot.
final class UsingSink<Element>: Sink<Element>, OperatorSink, @unchecked Sendable {
    let resource = SingleAssignmentDisposable()

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element): forwardNext(element)
        case .error(let error): stop(with: .error(error))
        case .completed: stop(with: .completed)
        }
    }

    /// Disposes the subscription, then the resource.
    override func dispose() {
        super.dispose()
        resource.dispose()
    }
}
