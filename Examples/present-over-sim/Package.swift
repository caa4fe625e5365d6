// swift-tools-version:6.1
//
// An application outside swift-mdoc that runs whole sessions with its library: it depends on the
// repository by path, exactly as it would depend on a release by URL, and sees only the public
// API.

import PackageDescription

let package = Package(
    name: "present-over-sim",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "swift-mdoc", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "present-over-sim",
            dependencies: [
                .product(name: "MdocCBOR", package: "swift-mdoc"),
                .product(name: "MdocCrypto", package: "swift-mdoc"),
                .product(name: "MdocModel", package: "swift-mdoc"),
                .product(name: "MdocSession", package: "swift-mdoc"),
                .product(name: "MdocSim", package: "swift-mdoc"),
                .product(name: "MdocPresentation", package: "swift-mdoc"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
