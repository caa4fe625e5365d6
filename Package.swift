// swift-tools-version:6.1
//
// swift-mdoc: the ISO/IEC 18013-5 mobile document toolkit for Linux.
// Architecture: docs/architecture.md, sections 1 and 2. Arrows point down only:
// SwiftMdoc (the umbrella: one import for an application) -> the library products a holder or a
// reader uses; MdocRadios (the bearers by name, withRadio) -> MdocSim, MdocLEHost, MdocBlueZ ->
// MdocDBus (bluetoothd's bus), MdocPosix (system calls, descriptor channels, child processes on
// SwiftNIO's NIOPosix) -> MdocBLE (ATT, GATT and the 18013-5 BLE service: no I/O, NIOCore);
// MdocPresentation (MdocReader, MdocHolder and their drivers) -> MdocBLE, MdocNFC, MdocSession ->
// MdocModel -> MdocCOSE -> MdocCrypto, MdocCBOR; MdocNFC (NFC engagement and retrieval, no I/O)
// -> MdocModel; the files and what the programs show:
// MdocCapture, MdocInspection, MdocQR, MdocStores -> MdocFiles -> MdocText; the programs ->
// MdocCommandLine (argument parsing) -> MdocTerminal, MdocConsent (terminal I/O, package API);
// MdocOnline (online presentation, ISO/IEC TS 18013-7 and OpenID4VP 1.0: transcripts, JWE; no I/O)
// -> MdocModel, MdocText;
// mdoc-issuer -> MdocIssuance (making documents, 9.1.2), MdocIssuerData; MdocPCSC (PC/SC and a
// virtual card for vpcd, raw APDUs) -> MdocNFC (NFC engagement and data retrieval as pure code),
// CPCSC.
// Every module that throws imports MdocErrors (MdocError, the one error type), which imports
// nothing, and a module that declares its own error domain re-exports it (Exports.swift).
// MdocBLE knows messages only as bytes and imports no other module of the toolkit but
// MdocErrors; MdocSession never imports a BLE module; MdocPresentation is where the two meet: it
// runs sessions over any MdocRadio.

import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "swift-mdoc",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "MdocErrors", targets: ["MdocErrors"]),
        .library(name: "MdocCBOR", targets: ["MdocCBOR"]),
        .library(name: "MdocCrypto", targets: ["MdocCrypto"]),
        .library(name: "MdocCOSE", targets: ["MdocCOSE"]),
        .library(name: "MdocModel", targets: ["MdocModel"]),
        .library(name: "MdocSession", targets: ["MdocSession"]),
        .library(name: "MdocIssuance", targets: ["MdocIssuance"]),
        .library(name: "MdocBLE", targets: ["MdocBLE"]),
        .library(name: "MdocSim", targets: ["MdocSim"]),
        .library(name: "MdocLEHost", targets: ["MdocLEHost"]),
        .library(name: "MdocDBus", targets: ["MdocDBus"]),
        .library(name: "MdocBlueZ", targets: ["MdocBlueZ"]),
        .library(name: "MdocPresentation", targets: ["MdocPresentation"]),
        .library(name: "MdocText", targets: ["MdocText"]),
        .library(name: "MdocFiles", targets: ["MdocFiles"]),
        .library(name: "MdocInspection", targets: ["MdocInspection"]),
        .library(name: "MdocCapture", targets: ["MdocCapture"]),
        .library(name: "MdocConformance", targets: ["MdocConformance"]),
        .library(name: "MdocQR", targets: ["MdocQR"]),
        .library(name: "MdocStores", targets: ["MdocStores"]),
        .library(name: "MdocRadios", targets: ["MdocRadios"]),
        .library(name: "MdocPCSC", targets: ["MdocPCSC"]),
        .library(name: "MdocNFC", targets: ["MdocNFC"]),
        .library(name: "MdocStatusList", targets: ["MdocStatusList"]),
        .library(name: "MdocHTTP", targets: ["MdocHTTP"]),
        .library(name: "MdocOnline", targets: ["MdocOnline"]),
        // The one import of an application: every library product above, re-exported.
        .library(name: "SwiftMdoc", targets: ["SwiftMdoc"]),
        .executable(name: "mdoc", targets: ["mdoc"]),
        .executable(name: "mdoc-reader", targets: ["mdoc-reader"]),
        .executable(name: "mdoc-holder", targets: ["mdoc-holder"]),
        .executable(name: "mdoc-issuer", targets: ["mdoc-issuer"]),
        .executable(name: "mdoc-benchmark", targets: ["mdoc-benchmark"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // The one I/O runtime of the bearers: event loops, channels, ByteBuffer.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // Tests only: property-based checks of the holder's privacy guarantees.
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        // `swift package generate-documentation` (scripts/docs.sh): DocC, nothing linked.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // System libraries (docs/architecture.md section 1): found through pkg-config, nothing else inside.
        .systemLibrary(
            name: "CCBOR",
            pkgConfig: "libcbor",
            providers: [.apt(["libcbor-dev"])]
        ),
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // pcsc-lite's client library (libpcsclite-dev): a C target whose headers reach
        // /usr/include/PCSC, not a pkg-config system library, whose -pthread SwiftPM refuses
        // with a warning on every build.
        .target(
            name: "CPCSC",
            linkerSettings: [.linkedLibrary("pcsclite")]
        ),
        // zlib (RFC 1950) for the compressed status lists of the Token Status List draft.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CQREncode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"])]
        ),
        // The camera/QR-image and Bluetooth libraries, opened when first used (dlopen), not at
        // start-up: with what they bring (X11, v4l, gcrypt...) they were most of the start-up
        // of programs that never use them. Their headers come from libzbar-dev, libpng-dev,
        // libjpeg-dev and libbluetooth-dev.
        .target(name: "CDynamicLibrary"),
        .target(name: "CZBar", dependencies: ["CDynamicLibrary"]),
        .target(name: "CPNG", dependencies: ["CDynamicLibrary"]),
        .target(name: "CJPEG", dependencies: ["CDynamicLibrary"]),
        .target(name: "CBlueZ", dependencies: ["CDynamicLibrary"]),
        // libcurl (headers from libcurl4-openssl-dev), opened on the first fetch like the above:
        // it brings some thirty objects (TLS, HTTP/2, IDN, LDAP, SSH...).
        .target(name: "CCurl", dependencies: ["CDynamicLibrary"]),
        // Functions over OpenSSL macros and inline helpers, callable from Swift.
        .target(
            name: "COpenSSLShims",
            dependencies: ["COpenSSL"]
        ),
        // The HCI user channel through libbluetooth, with no BlueZ type in its interface.
        .target(
            name: "CBlueZShims",
            dependencies: ["CBlueZ"]
        ),
        // glibc's posix_spawn extensions (chdir, closefrom), for MdocPosix's child processes.
        .target(name: "CSpawnShims"),
        // PNG and JPEG reading and writing with libpng's and libjpeg's longjmp errors caught in C.
        .target(
            name: "CImageIO",
            dependencies: ["CPNG", "CJPEG"]
        ),

        // Libraries.
        // The one shape of every error (CodedError, ErrorCode): imported by every module that
        // throws, MdocBLE included; it imports nothing.
        .target(name: "MdocErrors", swiftSettings: strictSettings),
        .target(
            name: "MdocCBOR",
            dependencies: ["MdocErrors", "CCBOR"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "MdocCrypto",
            dependencies: [
                "MdocErrors", "COpenSSL", "COpenSSLShims",
                // NIOLockedValueBox, whose pthread mutex ThreadSanitizer sees (scripts/tsan-suppressions.txt).
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "MdocCOSE",
            dependencies: ["MdocCBOR", "MdocCrypto"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "MdocModel",
            dependencies: ["MdocErrors", "MdocCBOR", "MdocCOSE"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "MdocSession",
            dependencies: [
                "MdocErrors", "MdocCBOR", "MdocCrypto", "MdocCOSE", "MdocModel",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        // Issuing documents (9.1.2): the issuer's side, which no holder or reader links.
        .target(
            name: "MdocIssuance",
            dependencies: ["MdocErrors", "MdocCBOR", "MdocCrypto", "MdocCOSE", "MdocModel", "MdocSession"],
            swiftSettings: strictSettings
        ),
        // NFC engagement and NFC data retrieval as pure code (ISO/IEC 18013-5 8.2.2.1, 8.3.3.1.2):
        // APDUs, the NFC Forum Type 4 Tag, Connection Handover and TNEP, both the reader's side
        // over any command channel and the card's side, with no I/O.
        .target(
            name: "MdocNFC",
            dependencies: ["MdocErrors", "MdocCBOR", "MdocModel"],
            swiftSettings: strictSettings
        ),
        // The IETF Token Status List (draft-ietf-oauth-status-list) in its CWT form as pure code:
        // the status list, its zlib compression with an absolute cap, the signed or MACed token.
        .target(
            name: "MdocStatusList",
            dependencies: ["MdocErrors", "MdocCBOR", "MdocCrypto", "MdocCOSE", "MdocModel", "MdocSession", "CZlib"],
            swiftSettings: strictSettings
        ),
        // Online presentation (ISO/IEC TS 18013-7, OpenID4VP 1.0) as pure code: the
        // SessionTranscript Handovers of each specification, JWK thumbprints, ECDH-ES JWEs, the
        // requests and HPKE-encrypted responses of 18013-7 Annex C.
        .target(
            name: "MdocOnline",
            dependencies: ["MdocErrors", "MdocCBOR", "MdocCrypto", "MdocCOSE", "MdocModel", "MdocSession", "MdocText"],
            swiftSettings: strictSettings
        ),
        // One bounded HTTP(S) GET through libcurl, for Status List Tokens (draft-ietf-oauth-status-list
        // section 8): timeouts, a low-speed floor, a body cap, redirects that keep the scheme.
        .target(
            name: "MdocHTTP",
            dependencies: ["MdocErrors", "MdocCBOR", "MdocPosix", "CCurl"],
            swiftSettings: strictSettings
        ),
        // The BLE modules (docs/architecture.md section 4): the 18013-5 service and its GATT layer
        // as pure code, the bearers under it, each with what changes together.
        .target(
            name: "MdocBLE",
            dependencies: [
                "MdocErrors",
                // NIOLockedValueBox, whose pthread mutex ThreadSanitizer sees (Synchronization's
                // Mutex waits on a futex it does not).
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "MdocPosix",
            dependencies: [
                "MdocBLE", "CSpawnShims",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "MdocSim",
            dependencies: [
                "MdocBLE", "MdocPosix",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "MdocLEHost",
            dependencies: [
                "MdocBLE", "MdocPosix", "CBlueZShims",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The toolkit's own D-Bus client on SwiftNIO, which the bluez transport speaks to bluetoothd
        // with: its API is package, but for the message decoder FuzzTesting/ drives.
        .target(
            name: "MdocDBus",
            dependencies: [
                "MdocBLE", "MdocPosix",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "MdocBlueZ",
            dependencies: [
                "MdocBLE", "MdocDBus",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // PC/SC (pcsc-lite's client library) for a reader on the card side of NFC, and a virtual
        // card for vsmartcard's vpcd driver, on raw APDU bytes; MdocNFC's command channel and
        // card over them.
        .target(
            name: "MdocPCSC",
            dependencies: [
                "MdocErrors", "MdocNFC", "CPCSC",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "MdocPresentation",
            dependencies: [
                "MdocErrors",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                "MdocCBOR", "MdocCrypto", "MdocCOSE", "MdocModel", "MdocSession", "MdocBLE", "MdocNFC",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // What the programs show and read, as libraries (docs/architecture.md section 2): text made
        // safe for a terminal and deterministic JSON; the files a user hands the programs and the
        // files they make, with the exit statuses they fail with.
        .target(
            name: "MdocText",
            dependencies: ["MdocCBOR"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "MdocFiles",
            dependencies: ["MdocErrors", "MdocCBOR", "MdocPosix", "MdocText"],
            swiftSettings: strictSettings
        ),
        // The explainer of any 18013-5 message, certificate, NFC handover or JWS (`mdoc inspect`),
        // and lossless JSON.
        .target(
            name: "MdocInspection",
            dependencies: [
                "MdocCBOR", "MdocCrypto", "MdocCOSE", "MdocModel", "MdocBLE", "MdocLEHost", "MdocNFC", "MdocText", "MdocFiles",
            ],
            swiftSettings: strictSettings
        ),
        // Session capture: writing, reading and explaining the directory --save-session makes
        // (docs/session-capture.md).
        .target(
            name: "MdocCapture",
            dependencies: [
                "MdocErrors", "MdocPosix", "MdocCBOR", "MdocCrypto", "MdocCOSE", "MdocModel", "MdocSession", "MdocBLE",
                "MdocPresentation", "MdocText", "MdocFiles", "MdocInspection", "MdocNFC",
            ],
            swiftSettings: strictSettings
        ),
        // Conformance tests of a device under test: scripted sessions, each expecting one
        // behaviour, run and captured one session per case (docs/conformance.md).
        .target(
            name: "MdocConformance",
            dependencies: [
                "MdocErrors", "MdocCBOR", "MdocCrypto", "MdocCOSE", "MdocModel", "MdocSession", "MdocBLE", "MdocPresentation",
                "MdocText", "MdocFiles", "MdocCapture",
            ],
            swiftSettings: strictSettings
        ),
        // QR codes: drawn as text, written as images, read from PNG and JPEG files.
        .target(
            name: "MdocQR",
            dependencies: ["MdocErrors", "MdocFiles", "CQREncode", "CZBar", "CImageIO"],
            swiftSettings: strictSettings
        ),
        // Credential files and the holder's store, trust files and the reader's trust folder, key
        // and certificate files, the user's directories: trust and credentials loaded as the
        // programs load them.
        .target(
            name: "MdocStores",
            dependencies: [
                "MdocCBOR", "MdocCrypto", "MdocCOSE", "MdocModel", "MdocSession", "MdocText", "MdocFiles", "MdocPosix", "MdocHTTP", "MdocStatusList",
            ],
            swiftSettings: strictSettings
        ),
        // The radios by name: the `sim`, `hci:` and `bluez` bearers behind one spec, the
        // system's default, and a scope that closes the radio on every path.
        .target(
            name: "MdocRadios",
            dependencies: [
                "MdocBLE", "MdocSim", "MdocLEHost", "MdocBlueZ", "MdocPresentation",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The umbrella: one import for an application, re-exporting the library products a
        // holder or a reader uses (not the issuer's side, nor the bearers MdocRadios opens).
        .target(
            name: "SwiftMdoc",
            dependencies: [
                "MdocErrors", "MdocCBOR", "MdocCrypto", "MdocCOSE", "MdocModel", "MdocSession", "MdocBLE",
                "MdocPresentation", "MdocRadios", "MdocText", "MdocFiles", "MdocInspection", "MdocCapture", "MdocConformance", "MdocQR",
                "MdocStores", "MdocNFC", "MdocStatusList", "MdocHTTP", "MdocOnline",
            ],
            swiftSettings: strictSettings
        ),
        // The programs' terminal, not a product: output that escapes what peers send, progress,
        // report rendering, log records on standard error, exit on a ProgramFailure.
        .target(
            name: "MdocTerminal",
            dependencies: [
                "MdocPosix", "MdocCBOR", "MdocCrypto", "MdocModel", "MdocSession", "MdocBLE", "MdocText", "MdocFiles",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The holder's consent at a terminal and its policy files (docs/consent-policy.md), not a
        // product: an application answers HolderConsentDelegate (MdocPresentation) with its own UI.
        .target(
            name: "MdocConsent",
            dependencies: [
                "MdocErrors", "MdocPosix", "MdocCBOR", "MdocSession", "MdocPresentation", "MdocText", "MdocFiles",
                "MdocTerminal",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        // Issuer data files (docs/issuer-data-format.md), which only mdoc-issuer reads; not a product.
        .target(
            name: "MdocIssuerData",
            dependencies: ["MdocErrors", "MdocCBOR", "MdocModel", "MdocText", "MdocFiles"],
            swiftSettings: strictSettings
        ),
        // What makes the programs command-line programs, not a product: the argument-parser
        // entry and the option groups several commands share, the --transport value and the
        // radio it opens, and how a live program ends on SIGINT and SIGTERM.
        .target(
            name: "MdocCommandLine",
            dependencies: [
                "MdocCrypto", "MdocSession", "MdocBLE", "MdocSim", "MdocLEHost", "MdocBlueZ", "MdocPresentation",
                "MdocRadios", "MdocText", "MdocFiles", "MdocTerminal",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),

        // Programs: thin argument-parser commands.
        .executableTarget(
            name: "mdoc",
            dependencies: [
                "MdocCBOR", "MdocModel", "MdocPosix", "MdocText", "MdocFiles", "MdocInspection", "MdocCapture",
                "MdocTerminal", "MdocConsent", "MdocCommandLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "mdoc-reader",
            dependencies: [
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                "MdocCBOR", "MdocCrypto", "MdocCOSE", "MdocModel", "MdocSession", "MdocBLE", "MdocPresentation", "MdocRadios",
                "MdocText", "MdocFiles", "MdocCapture", "MdocQR", "MdocStores", "MdocTerminal", "MdocCommandLine", "MdocNFC",
                "MdocPCSC", "MdocHTTP", "MdocStatusList", "MdocInspection", "MdocConformance", "MdocConsent", "MdocOnline",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "mdoc-holder",
            dependencies: [
                "MdocErrors", "MdocCBOR", "MdocCrypto", "MdocCOSE", "MdocModel", "MdocSession", "MdocBLE", "MdocPresentation",
                "MdocRadios", "MdocText", "MdocFiles", "MdocCapture", "MdocQR", "MdocStores", "MdocTerminal", "MdocConsent",
                "MdocCommandLine", "MdocNFC", "MdocPCSC", "MdocOnline", "MdocConformance", "MdocInspection",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "mdoc-issuer",
            dependencies: [
                "MdocCBOR", "MdocCrypto", "MdocCOSE", "MdocModel", "MdocSession", "MdocIssuance", "MdocText", "MdocFiles",
                "MdocStores", "MdocIssuerData", "MdocStatusList", "MdocTerminal", "MdocCommandLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "mdoc-benchmark",
            dependencies: [
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                "MdocCBOR", "MdocCrypto", "MdocCOSE", "MdocModel", "MdocSession", "MdocIssuance", "MdocBLE", "MdocPosix",
                "MdocLEHost", "MdocPresentation", "MdocFiles", "MdocStores", "MdocStatusList", "MdocHTTP", "MdocOnline", "MdocNFC", "MdocTerminal",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),

        // Test support: the Vectors/ loader, the helper processes of the tests, and a test PKI with
        // documents issued for it; not a product.
        .target(
            name: "MdocTestSupport",
            dependencies: [
                "MdocPosix", "MdocDBus", "MdocCBOR", "MdocBLE", "COpenSSL", "MdocCrypto", "MdocCOSE", "MdocModel",
                "MdocSession", "MdocIssuance", "MdocPCSC",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        // Test support: peers in the test process that break the 18013-5 BLE service on purpose,
        // and a holder that connects when told, for the program and the driver tests; not a
        // product.
        .target(
            name: "MdocTestPeers",
            dependencies: [
                "MdocCBOR", "MdocCrypto", "MdocModel", "MdocSession", "MdocBLE", "MdocSim", "MdocLEHost", "MdocPresentation",
                "MdocTestSupport",
            ],
            swiftSettings: strictSettings
        ),

        .testTarget(
            name: "MdocCBORTests",
            dependencies: ["MdocCBOR", "MdocTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "MdocCryptoTests",
            dependencies: ["MdocCrypto", "MdocTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "MdocCOSETests",
            dependencies: ["MdocCBOR", "MdocCrypto", "MdocCOSE", "MdocTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "MdocModelTests",
            dependencies: ["MdocCBOR", "MdocCrypto", "MdocCOSE", "MdocModel", "MdocTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "MdocStatusListTests",
            dependencies: ["MdocCBOR", "MdocCrypto", "MdocCOSE", "MdocStatusList", "MdocTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "MdocOnlineTests",
            dependencies: ["MdocCBOR", "MdocCrypto", "MdocCOSE", "MdocModel", "MdocSession", "MdocText", "MdocOnline", "MdocTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "MdocHTTPTests",
            dependencies: ["MdocHTTP", "MdocPosix", "MdocTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "MdocNFCTests",
            dependencies: ["MdocCBOR", "MdocModel", "MdocNFC", "MdocTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "MdocSessionTests",
            dependencies: [
                "MdocCBOR", "MdocCrypto", "MdocCOSE", "MdocModel", "MdocSession", "MdocIssuance", "MdocNFC", "MdocPresentation",
                "MdocTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "MdocIssuanceTests",
            dependencies: ["MdocCBOR", "MdocCrypto", "MdocCOSE", "MdocModel", "MdocSession", "MdocIssuance", "MdocStatusList", "MdocTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "MdocConformanceTests",
            dependencies: [
                "MdocCBOR", "MdocCrypto", "MdocCOSE", "MdocModel", "MdocSession", "MdocNFC", "MdocBLE", "MdocSim", "MdocPresentation",
                "MdocConformance", "MdocTestSupport", "MdocTestPeers",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "MdocBLETests",
            dependencies: [
                "MdocBLE", "MdocTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "MdocSimTests",
            dependencies: [
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                "MdocBLE", "MdocSim", "MdocTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "MdocLEHostTests",
            dependencies: [
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                "MdocBLE", "MdocLEHost", "MdocTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "MdocDBusTests",
            dependencies: [
                "MdocDBus", "MdocTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "MdocBlueZTests",
            dependencies: [
                "MdocBLE", "MdocDBus", "MdocBlueZ", "MdocTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "MdocPCSCTests",
            dependencies: [
                "MdocCBOR", "MdocModel", "MdocSession", "MdocPresentation", "MdocNFC", "MdocPCSC", "MdocTestSupport", "MdocTestPeers",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "MdocTerminalTests",
            dependencies: [
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                "MdocCBOR", "MdocCrypto", "MdocCOSE", "MdocModel", "MdocSession", "MdocBLE", "MdocSim", "MdocText",
                "MdocFiles", "MdocInspection", "MdocCapture", "MdocQR", "MdocStores", "MdocIssuerData",
                "MdocTerminal", "MdocConsent",
                "MdocTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "MdocCommandLineTests",
            dependencies: [
                "MdocSession", "MdocLEHost", "MdocPresentation", "MdocRadios", "MdocText", "MdocFiles", "MdocCommandLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "MdocPresentationTests",
            dependencies: [
                "MdocCBOR", "MdocCrypto", "MdocModel", "MdocSession", "MdocIssuance", "MdocBLE", "MdocSim", "MdocLEHost",
                "MdocPresentation", "MdocTestSupport", "MdocTestPeers", "MdocNFC",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "MdocCLITests",
            dependencies: [
                "mdoc", "mdoc-reader", "mdoc-holder", "mdoc-issuer",
                "MdocCBOR", "MdocCrypto", "MdocCOSE", "MdocModel", "MdocSession", "MdocIssuance", "MdocBLE", "MdocSim",
                "MdocPosix", "MdocLEHost", "MdocPresentation", "MdocText", "MdocFiles", "MdocQR", "MdocStores",
                "MdocTerminal", "MdocTestSupport", "MdocTestPeers", "MdocNFC", "MdocPCSC", "MdocStatusList", "MdocOnline",
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
