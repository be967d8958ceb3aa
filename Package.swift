// swift-tools-version:6.0
import PackageDescription

/// Debug builds count live subscriptions (`Resources.total`); release builds do not.
let package = Package(
    name: "Reactive",
    products: [
        .library(name: "Reactive", targets: ["Reactive"]),
        .library(name: "ReactiveTesting", targets: ["ReactiveTesting"]),
        .library(name: "Networking", targets: ["Networking"]),
        .library(name: "PhotoFeed", targets: ["PhotoFeed"]),
    ],
    targets: [
        .target(name: "Reactive"),
        .target(name: "ReactiveTesting", dependencies: ["Reactive"]),
        .target(name: "Networking", dependencies: ["Reactive"]),
        .target(name: "PhotoFeed", dependencies: ["Reactive", "Networking"]),
        .target(name: "TestSupport", dependencies: ["Reactive"], path: "Tests/TestSupport"),
        .testTarget(name: "ReactiveTests", dependencies: ["Reactive", "ReactiveTesting", "TestSupport"]),
        .testTarget(name: "ReactiveTestingTests", dependencies: ["Reactive", "ReactiveTesting", "TestSupport"]),
        .testTarget(name: "NetworkingTests", dependencies: ["Networking", "Reactive", "ReactiveTesting", "TestSupport"]),
        .testTarget(name: "PhotoFeedTests", dependencies: ["PhotoFeed", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
