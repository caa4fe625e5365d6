import ArgumentParser
import MdocCommandLine
import MdocTerminal

/// `mdoc-holder`: presents ISO/IEC 18013-5 mobile documents to a reader, and keeps them.
@main
struct MdocHolder: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mdoc-holder",
        abstract: "Present ISO/IEC 18013-5 mobile documents to an mdoc reader.",
        discussion: """
            ENVIRONMENT
              MDOC_TOKEN_PIN  The PIN of the PKCS#11 token holding a device key, when no \
            --pin-file is given.
              MDOC_KEY_PASSPHRASE  The passphrase of a sealed device key, when no \
            --passphrase-file is given.
              MDOC_TRUST_READERS  The reader roots of present, paths separated by ':', when no \
            --trust-readers is given.
              XDG_DATA_HOME, XDG_CONFIG_HOME  Where the credential store and the trust store \
            are (an absolute path; else ~/.local/share and ~/.config).
              MDOC_SIM_NAMESPACE  Keeps the sim transport's sockets apart from other runs': a \
            holder and a reader meet only when both have the same value.
              DBUS_SYSTEM_BUS_ADDRESS  The system bus where bluetoothd is reached (the bluez \
            transport), instead of the default one.
              COLUMNS  The width the QR code must fit and help is wrapped to, instead of the \
            terminal's.

            FILES
              $XDG_DATA_HOME/swift-mdoc/credentials  The credential store: what present and \
            test-reader show without --credential, and what list, show, import and remove work \
            on (mode 0700, each credential 0600).
              $XDG_CONFIG_HOME/swift-mdoc/trust/readers  The reader roots present trusts \
            without --trust-readers or MDOC_TRUST_READERS.

            EXIT STATUS
              0  Done: the session ended normally (with --keep-running: interrupted), or the \
            store command did what it was asked.
              2  The request to respond to is not an org-iso-mdoc request (respond).
              7  An input or output is unusable: a credential, its key (token absent, PIN \
            refused, passphrase missing or wrong), --trust-readers, --policy, --qr-png, \
            --save-session, a test-reader report, --engagements-out or --captures, or the store.
              8  The session did not complete: no transport, no reader within --timeout, the \
            link lost before the response, no answer to the consent prompt within \
            --consent-timeout, or status 10 or 11; for test-reader, a case inconclusive.
              10  A conformance case failed (test-reader).
              64  Usage error.
              130  Interrupted by Ctrl-C (SIGINT), after ending a session under way with status 20.
              143  Ended by SIGTERM, after ending a session under way with status 20.
            """,
        version: ToolVersion.current,
        subcommands: [Present.self, Respond.self, TestReader.self, List.self, Show.self, Import.self, Remove.self, Key.self]
    )

    static func main() async {
        await ProgramEntry.main(Self.self)
    }
}
