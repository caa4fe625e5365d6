// swift-tools-version:6.1
//
// A holder built on swift-mdoc's one import: it depends on the repository by path, exactly
// as it would depend on a release by URL, and sees only the public API.

import PackageDescription

let package = Package(
    name: "linux-holder",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "swift-mdoc", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "linux-holder",
            dependencies: [
                .product(name: "SwiftMdoc", package: "swift-mdoc")
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
