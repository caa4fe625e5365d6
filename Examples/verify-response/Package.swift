// swift-tools-version:6.1
//
// An application outside swift-mdoc that uses its library: it depends on the repository by path,
// exactly as it would depend on a release by URL, and sees only the public API.

import PackageDescription

let package = Package(
    name: "verify-response",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "swift-mdoc", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "verify-response",
            dependencies: [
                .product(name: "MdocCBOR", package: "swift-mdoc"),
                .product(name: "MdocCrypto", package: "swift-mdoc"),
                .product(name: "MdocSession", package: "swift-mdoc"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
