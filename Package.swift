// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ReactiveNetworking",
    products: [
        .library(name: "HTTPWire", targets: ["HTTPWire"]),
        .library(name: "FeedServer", targets: ["FeedServer"]),
    ],
    targets: [
        .target(name: "HTTPWire"),
        .target(name: "FeedServer", dependencies: ["HTTPWire"]),
        .testTarget(name: "HTTPWireTests", dependencies: ["HTTPWire"]),
        .testTarget(name: "FeedServerTests", dependencies: ["FeedServer", "HTTPWire"]),
    ],
    swiftLanguageModes: [.v6]
)
