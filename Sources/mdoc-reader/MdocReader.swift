import ArgumentParser
import MdocCommandLine
import MdocTerminal

/// `mdoc-reader`: the ISO/IEC 18013-5 mdoc reader.
@main
struct MdocReader: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mdoc-reader",
        abstract: "Read and verify ISO/IEC 18013-5 mobile documents.",
        discussion: """
            ENVIRONMENT
              MDOC_TRUST  The IACA roots of request and verify, paths separated by ':', when no \
            --trust or --trust-store is given.
              MDOC_TRUST_READERS  The reader roots of verify-request, paths separated by ':', \
            when no --trust-readers is given.
              MDOC_TOKEN_PIN  The PIN of the PKCS#11 token holding the reader key, when no \
            --pin-file is given.
              XDG_CONFIG_HOME, XDG_CACHE_HOME  Where the trust store and the status lists \
            fetched are kept (an absolute path; else ~/.config and ~/.cache).
              MDOC_SIM_NAMESPACE  Keeps the sim transport's sockets apart from other runs': a \
            holder and a reader meet only when both have the same value.
              DBUS_SYSTEM_BUS_ADDRESS  The system bus where bluetoothd is reached (the bluez \
            transport), instead of the default one.
              NO_COLOR  Set and not empty: no colour in the report (no-color.org).
              CLICOLOR_FORCE  Set and neither empty nor 0: colour in output that is not a \
            terminal; NO_COLOR still wins.
              COLUMNS  The width help is wrapped to, instead of the terminal's.

            FILES
              $XDG_CONFIG_HOME/swift-mdoc/trust/iaca  The trust store: the IACA roots request \
            and verify trust without --trust or MDOC_TRUST, and the VICALs they came from \
            (the trust commands).
              $XDG_CACHE_HOME/swift-mdoc/status  The status lists and identifier lists fetched, \
            kept for their time to live (--status check or require).

            EXIT STATUS
              0  Verified, or the command did what it was asked.
              2  Malformed input: unreadable, not well-formed CBOR, or not the expected structure.
              3  Issuer data authentication failed.
              4  Device authentication failed.
              5  Device authentication not checked (verify: no transcript or reader key).
              6  No documents returned.
              7  An input or output is unusable: --trust, --reader-cert, --reader-key, \
            --transcript, --qr-image, --request, --portrait-out, --save-session or the trust \
            store.
              8  The session did not complete: no transport, no mdoc within --timeout, the link \
            lost, or the session failed; verify --session: the capture has no response.
              9  Reader authentication failed or absent (verify-request).
              10  A conformance case failed (test-holder).
              11  An online response that does not belong to its request: another origin or \
            request, altered, or past its expiry (verify --online-state, --handover).
              64  Usage error.
              130  Interrupted by Ctrl-C (SIGINT), after ending a session under way with status 20.
              143  Ended by SIGTERM, after ending a session under way with status 20.
            """,
        version: ToolVersion.current,
        subcommands: [Request.self, Verify.self, VerifyRequest.self, OnlineRequest.self, Scan.self, TestHolder.self, Trust.self]
    )

    static func main() async {
        await ProgramEntry.main(Self.self)
    }
}
