import CPCSC
import Glibc

/// One reader's entry of an `SCardGetStatusChange` call (`SCARD_READERSTATE`, PC/SC part 5): the
/// state the caller knows, and the state pcscd reports back with the card's ATR.
struct ReaderState {
    /// The reader's name, or ``PCSCLibrary/plugAndPlayReader``.
    let name: String
    /// The `SCARD_STATE_*` flags the caller knows.
    var currentState: DWORD
    /// The `SCARD_STATE_*` flags pcscd reported.
    var eventState: DWORD = 0
    /// The ATR pcscd reported, when a card is present.
    var atr: [UInt8] = []

    init(name: String, currentState: DWORD) {
        self.name = name
        self.currentState = currentState
    }

    /// Calls `body` with `states` as a C array, then copies what pcscd wrote into them.
    static func withCStates(_ states: inout [ReaderState], _ body: (UnsafeMutablePointer<SCARD_READERSTATE>, Int) -> LONG) -> LONG {
        let names = states.map { strdup($0.name) }
        defer { names.forEach { free($0) } }
        var cStates = zip(states, names).map { state, name in
            var cState = SCARD_READERSTATE()
            cState.szReader = UnsafePointer(name)
            cState.dwCurrentState = state.currentState
            return cState
        }
        let result = cStates.withUnsafeMutableBufferPointer { buffer in
            body(buffer.baseAddress!, buffer.count)
        }
        for index in states.indices {
            let cState = cStates[index]
            states[index].eventState = cState.dwEventState
            let count = min(Int(cState.cbAtr), PCSCCard.maximumATRLength)
            states[index].atr = withUnsafeBytes(of: cState.rgbAtr) { Array($0.prefix(count)) }
        }
        return result
    }
}
