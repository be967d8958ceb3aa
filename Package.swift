// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "PhotoFeed",
    products: [
        .library(name: "PhotoFeed", targets: ["PhotoFeed"]),
    ],
    targets: [
        .target(name: "PhotoFeed"),
        .testTarget(name: "PhotoFeedTests", dependencies: ["PhotoFeed"]),
    ],
    swiftLanguageModes: [.v6]
)
