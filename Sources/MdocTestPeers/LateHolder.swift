import MdocBLE
import MdocCBOR
import MdocModel
import MdocPresentation
import MdocSession

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A well-behaved mdoc in this test process, in mdoc central client mode: a ``HolderDriver``
/// with the demo mDL that shows its engagement at once but connects to the reader only when the
/// test says, so that other centrals can reach the reader's GATT server first (ISO/IEC 18013-5
/// 8.3.3.1.1.4).
package final class LateHolder {
    /// The engagement the reader under test is given.
    package let uri: String
    private let driver: HolderDriver
    private let serviceUUID: UUID

    /// A holder presenting the demo mDL with every requested element approved.
    package init() throws {
        let options = BleOptions.offering(peripheralServerMode: false, centralClientMode: true)
        driver = try HolderDriver(
            credentials: [try DemoMaterial.mDL()], bleOptions: options, trust: ReaderRootTrust(trustAnchors: []),
            consent: HolderConsent.approvingAllAvailable)
        guard let uuid = options.centralClientModeUUID else { throw PeerError("no central client mode UUID") }
        serviceUUID = uuid
        uri = driver.mdocURI.description
    }

    /// The service UUID the reader advertises (BleOptions key 11).
    package var centralServiceUUID: UUID { serviceUUID }

    /// Connects to the reader over `radio` and returns how the session ended once it did.
    package func present(over radio: any MdocRadio, timeout: Duration) async -> LiveSessionEnd {
        var driver = self.driver
        driver.timeouts = SessionTimeouts(connection: timeout, idle: timeout)
        return await driver.run(over: radio).end
    }
}
