// swift-tools-version:6.1
//
// An online verifier (ISO/IEC TS 18013-7 Annex C over HTTP) built on swift-mdoc: it depends on the
// repository by path, exactly as it would depend on a release by URL, and sees only the public
// API. Hummingbird 2 serves the HTTP; postgres-nio keeps the requests' states when several
// instances serve one site.

import PackageDescription

let package = Package(
    name: "online-verifier",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "swift-mdoc", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    ],
    targets: [
        .target(
            name: "OnlineVerifier",
            dependencies: [
                .product(name: "MdocCBOR", package: "swift-mdoc"),
                .product(name: "MdocCrypto", package: "swift-mdoc"),
                .product(name: "MdocModel", package: "swift-mdoc"),
                .product(name: "MdocOnline", package: "swift-mdoc"),
                .product(name: "MdocSession", package: "swift-mdoc"),
                .product(name: "MdocText", package: "swift-mdoc"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "online-verifier",
            dependencies: [
                "OnlineVerifier",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "OnlineVerifierTests",
            dependencies: [
                "OnlineVerifier",
                .product(name: "MdocCBOR", package: "swift-mdoc"),
                .product(name: "MdocCrypto", package: "swift-mdoc"),
                .product(name: "MdocModel", package: "swift-mdoc"),
                .product(name: "MdocOnline", package: "swift-mdoc"),
                .product(name: "MdocSession", package: "swift-mdoc"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
