// swift-tools-version:6.0
import PackageDescription

/// docs/MIGRATING.md's listings, compiled in the language mode each names and tested:
/// `MigrationListingTests` checks that each listing is the file it names, word for word.
/// The names are prefixed so that no client's target can clash with them.
var migrationExamples: [Target] {
    let swift5: [SwiftSetting] = [.swiftLanguageMode(.v5)]
    let app: [Target.Dependency] = ["Networking", "Reactive"]
    let tests: [Target.Dependency] = ["Networking", "Reactive", "ReactiveTesting"]
    return [
        // Steps 3 and 4: a view model and its RxTest tests, in the Swift 5 language mode.
        .target(name: "MigrationGitHub", dependencies: app, path: "Tests/Migration/GitHub", swiftSettings: swift5),
        .testTarget(name: "MigrationGitHubTests", dependencies: ["MigrationGitHub"] + tests,
                    path: "Tests/Migration/GitHubTests", swiftSettings: swift5),
        // Step 5: the same view model in the Swift 6 language mode, two ways.
        .target(name: "MigrationMainActor", dependencies: app, path: "Tests/Migration/MainActor"),
        .testTarget(name: "MigrationMainActorTests", dependencies: ["MigrationMainActor"] + tests,
                    path: "Tests/Migration/MainActorTests"),
        .target(name: "MigrationSendable", dependencies: app, path: "Tests/Migration/Sendable"),
        .testTarget(name: "MigrationSendableTests", dependencies: ["MigrationSendable"] + tests,
                    path: "Tests/Migration/SendableTests"),
        // A real-shaped codebase: plugins, a stub, a timeout, a provider subclass, an error chain.
        .target(name: "MigrationFlickr", dependencies: app + ["PhotoFeed"], path: "Tests/Migration/Flickr", swiftSettings: swift5),
        .testTarget(name: "MigrationFlickrTests", dependencies: ["MigrationFlickr", "FeedServer"] + tests,
                    path: "Tests/Migration/FlickrTests", swiftSettings: swift5),
        .target(name: "MigrationFlickrSwift6", dependencies: app, path: "Tests/Migration/FlickrSwift6"),
        // Older codebases (Moya 13-14, RxSwift 5, Alamofire 4), and any target pointed at FeedServer.
        .target(name: "MigrationLegacy", dependencies: app, path: "Tests/Migration/Legacy", swiftSettings: swift5),
        .testTarget(name: "MigrationLegacyTests", dependencies: ["MigrationLegacy", "FeedServer"] + tests,
                    path: "Tests/Migration/LegacyTests", swiftSettings: swift5),
        .testTarget(name: "MigrationListingTests", path: "Tests/Migration/ListingTests"),
    ]
}

/// Debug builds count live subscriptions (`Resources.total`); release builds do not.
let package = Package(
    name: "ReactiveNetworking",
    // Synchronization's Mutex and Atomic need these releases on Apple platforms.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Reactive", targets: ["Reactive"]),
        .library(name: "ReactiveTesting", targets: ["ReactiveTesting"]),
        .library(name: "ReactiveBlocking", targets: ["ReactiveBlocking"]),
        .library(name: "Networking", targets: ["Networking"]),
        .library(name: "PhotoFeed", targets: ["PhotoFeed"]),
        .library(name: "ImageDecoding", targets: ["ImageDecoding"]),
        .library(name: "HTTPWire", targets: ["HTTPWire"]),
        .library(name: "HTTPClient", targets: ["HTTPClient"]),
        .library(name: "FeedServer", targets: ["FeedServer"]),
        .library(name: "SystemTLS", targets: ["SystemTLS"]),
        .executable(name: "photo-feed", targets: ["PhotoFeedViewer"]),
        .executable(name: "benchmarks", targets: ["Benchmarks"]),
    ],
    targets: [
        // The package's one lock, beneath every module that shares state between threads.
        .target(name: "Locking"),
        .target(name: "Reactive", dependencies: ["Locking"]),
        .target(name: "ReactiveTesting", dependencies: ["Reactive", "Locking"]),
        // RxBlocking's `toBlocking()`: waits on the calling thread (the main run loop keeps running on the main thread).
        .target(name: "ReactiveBlocking", dependencies: ["Reactive", "Locking"]),
        // HTTP/1.1 on bytes only; the platform file, sockets and the event loop are EventLoopIO's.
        .target(name: "HTTPWire"),
        .target(name: "CLinuxCalls"),
        // TLS as a machine on bytes, over the system's OpenSSL loaded at run time (no headers, no C target).
        .target(name: "SystemTLS", dependencies: ["Locking"]),
        // Sockets, loops and the channel (a connection's byte side, its TLS machine included).
        .target(name: "EventLoopIO", dependencies: ["Locking", "CLinuxCalls", "SystemTLS"]),
        // The HTTP/1.1 client (pool, exchanges, redirects, decoding, deadlines): no Rx, no provider types.
        .target(name: "HTTPClient", dependencies: ["HTTPWire", "EventLoopIO", "SystemTLS", "Locking"]),
        .target(name: "FeedServer", dependencies: ["HTTPWire", "EventLoopIO", "SystemTLS", "ImageDecoding", "Locking"]),
        .target(name: "Networking", dependencies: ["Reactive", "HTTPClient", "HTTPWire", "SystemTLS", "Locking"]),
        .target(name: "ImageDecoding"),
        .target(name: "PhotoFeed", dependencies: ["Reactive", "Networking", "ImageDecoding", "Locking"]),
        .target(name: "PhotoFeedViewerCore", dependencies: ["PhotoFeed", "Networking", "Reactive", "FeedServer", "ImageDecoding", "Locking"]),
        .executableTarget(name: "PhotoFeedViewer", dependencies: ["PhotoFeedViewerCore"]),
        .executableTarget(name: "FuzzFeedSanitizer", dependencies: ["PhotoFeed"]),
        .executableTarget(name: "FuzzRequestParser", dependencies: ["HTTPWire"]),
        .executableTarget(name: "FuzzResponseParser", dependencies: ["HTTPWire"]),
        .executableTarget(name: "FuzzInflater", dependencies: ["HTTPWire"]),
        .executableTarget(name: "FuzzJPEGDecoder", dependencies: ["ImageDecoding"]),
        .executableTarget(name: "FuzzTLSClient", dependencies: ["SystemTLS"]),
        .executableTarget(name: "FuzzProxyTunnel", dependencies: ["HTTPClient"]),
        .executableTarget(name: "FuzzSessionFields", dependencies: ["Networking"]),
        .target(name: "CMallocInfo"),
        .executableTarget(
            name: "Benchmarks",
            dependencies: ["Reactive", "ReactiveTesting", "Networking", "PhotoFeed", "FeedServer", "EventLoopIO", "ImageDecoding", "CMallocInfo", "HTTPClient",
                           "PhotoFeedViewerCore", "Locking", "HTTPWire"]
        ),
        .target(name: "TestSupport", dependencies: ["Reactive", "Locking", "EventLoopIO", "SystemTLS", "HTTPWire", "CMallocInfo"], path: "Tests/TestSupport"),
        .testTarget(name: "ReactiveTests", dependencies: ["Reactive", "ReactiveTesting", "TestSupport"]),
        .testTarget(name: "ReactiveTestingTests", dependencies: ["Reactive", "ReactiveTesting", "TestSupport"]),
        .testTarget(name: "ReactiveBlockingTests", dependencies: ["ReactiveBlocking", "Reactive", "EventLoopIO", "TestSupport"]),
        .testTarget(name: "HTTPWireTests", dependencies: ["HTTPWire", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "EventLoopIOTests", dependencies: ["EventLoopIO", "Locking", "TestSupport"]),
        .testTarget(name: "SystemTLSTests", dependencies: ["SystemTLS", "TestSupport"]),
        .testTarget(name: "HTTPClientTests", dependencies: ["HTTPClient", "FeedServer", "HTTPWire", "EventLoopIO", "TestSupport"]),
        .testTarget(name: "FeedServerTests", dependencies: ["FeedServer", "HTTPWire", "EventLoopIO", "TestSupport"]),
        .testTarget(
            name: "NetworkingTests",
            dependencies: ["Networking", "HTTPClient", "Reactive", "ReactiveTesting", "TestSupport", "FeedServer", "HTTPWire", "EventLoopIO", "Locking"]
        ),
        .testTarget(
            name: "PhotoFeedTests",
            dependencies: ["PhotoFeed", "Networking", "Reactive", "ReactiveTesting", "TestSupport", "FeedServer", "Locking"]
        ),
        .testTarget(
            name: "PhotoFeedViewerTests",
            dependencies: ["PhotoFeedViewerCore", "PhotoFeed", "Reactive", "FeedServer", "EventLoopIO", "TestSupport", "ImageDecoding", "Networking", "Locking"],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "ImageDecodingTests", dependencies: ["ImageDecoding", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "BenchmarksTests", dependencies: ["Benchmarks", "PhotoFeed"]),
    ] + migrationExamples,
    swiftLanguageModes: [.v6]
)
