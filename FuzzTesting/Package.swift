// swift-tools-version:6.1
// libFuzzer targets for every parser of swift-mdoc that sees a peer's bytes (docs/architecture.md
// section 6). Built by scripts/fuzz.sh with `-sanitize=fuzzer,address` over the whole package
// graph, so the library code is instrumented too. Not part of the main package: nothing here is
// built by `swift build` at the top.
import PackageDescription

/// One executable per parser: its function under test is `LLVMFuzzerTestOneInput`, and its
/// main.swift hands that to libFuzzer (FuzzDriver).
let fuzzTargets = [
    "FuzzCBOR", "FuzzEngagement", "FuzzSessionData", "FuzzHolderSession", "FuzzReaderSession", "FuzzDeviceRequest",
    "FuzzDeviceResponse", "FuzzATT", "FuzzBLEReassembly", "FuzzHCI", "FuzzDBus", "FuzzCertificateChain", "FuzzVPICC", "FuzzAPDU",
    "FuzzNDEFHandover", "FuzzStatusListToken", "FuzzVICAL", "FuzzOnline", "FuzzCBORText", "FuzzOnlineMessages",
]

let mdoc: [Target.Dependency] = ["MdocCBOR", "MdocCrypto", "MdocCOSE", "MdocModel", "MdocSession", "MdocBLE", "MdocLEHost", "MdocDBus", "MdocNFC", "MdocPCSC", "MdocStatusList", "MdocOnline", "MdocInspection"].map {
    .product(name: $0, package: "swift-mdoc")
} + [.product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOEmbedded", package: "swift-nio")]

let package = Package(
    name: "FuzzTesting",
    dependencies: [
        .package(name: "swift-mdoc", path: ".."),
        // The H4, D-Bus and vpicc decoders run in an embedded channel, as in their transports' pipelines.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .systemLibrary(name: "CLibFuzzer"),
        .target(name: "FuzzSupport", dependencies: ["CLibFuzzer"] + mdoc),
    ] + fuzzTargets.map { name in
        .executableTarget(name: name, dependencies: ["FuzzSupport"] + mdoc)
    }
)
