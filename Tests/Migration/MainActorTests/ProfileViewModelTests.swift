@testable import MigrationMainActor
import Networking
import Reactive
import XCTest

final class ProfileViewModelTests: XCTestCase {
    @MainActor
    func testLoadingShowsTheNameAndTheRepos() async {
        let provider = NetworkProvider<GitHub>(stubClosure: NetworkProvider.immediatelyStub)
        let viewModel = ProfileViewModel(provider: provider)
        let loaded = expectation(description: "loading ends")
        let watch = viewModel.isLoading.skip(2).subscribe(onNext: { _ in loaded.fulfill() })

        viewModel.load(user: "octocat")
        await fulfillment(of: [loaded], timeout: 5)
        watch.dispose()

        XCTAssertEqual(viewModel.title.value, "The Octocat")
        XCTAssertEqual(viewModel.repos.value.map(\.name), ["Hello-World"])
    }
}
