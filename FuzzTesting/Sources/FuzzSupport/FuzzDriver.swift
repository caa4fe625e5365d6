import CLibFuzzer

/// Runs libFuzzer with the program's arguments and `target` as the function under test, and
/// returns its exit status. A target's main.swift is `exit(FuzzDriver.run { target($0, $1) })`:
/// SwiftPM gives every executable a main of its own, so libFuzzer's main cannot be used. The
/// closure calls the target's Swift function: a debug build that takes the `@_cdecl` function
/// itself as the C pointer emits its C entry in main.swift's object too, and the link fails on
/// two definitions of `LLVMFuzzerTestOneInput` (seen with Swift 6.3.1).
public enum FuzzDriver {
    public static func run(_ target: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32 {
        // The fixed context is made before the first input: libFuzzer counts what an input
        // allocates and does not free as a leak, and a global made during an input is such.
        _ = (AnnexD.iaca, AnnexD.readerRoot, AnnexD.transcript, AnnexD.eDeviceKey, AnnexD.eReaderKey, AnnexD.sessionKeys,
             DemoCredential.mdl)
        _ = target(nil, 0)
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        return LLVMFuzzerRunDriver(&argc, &argv, target)
    }
}
