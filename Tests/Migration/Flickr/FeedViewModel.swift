import Networking
import Reactive

final class FeedViewModel {
    let titles = BehaviorRelay<[String]>(value: [])
    let loading = BehaviorRelay<Bool>(value: false)
    let failure = PublishRelay<FeedError>()

    private let provider: FlickrProvider
    private let disposeBag = DisposeBag()

    init(provider: FlickrProvider = FlickrProvider()) {
        self.provider = provider
    }

    func load(tags: String) {
        loading.accept(true)
        provider.photos(tags: tags)
            .subscribe(onSuccess: { [weak self] feed in
                self?.titles.accept(feed.items.map { $0.title })
                self?.loading.accept(false)
            }, onFailure: { [weak self] error in
                self?.failure.accept(FeedError(error))
                self?.loading.accept(false)
            })
            .disposed(by: disposeBag)
    }
}

extension FeedViewModel: ReactiveCompatible {}

extension Rx where Base: FeedViewModel {
    /// Whether a load is running, without repeats.
    var isLoading: Observable<Bool> {
        base.loading.distinctUntilChanged()
    }
}
