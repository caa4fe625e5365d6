import ArgumentParser
import MdocBLE
import MdocSession
import MdocTerminal

extension RequestPreset: ExpressibleByArgument {}

extension MdocBLEMode: ExpressibleByArgument {}

extension TransportSpec: ExpressibleByArgument {
    public init?(argument: String) {
        guard let spec = try? TransportSpec(parsing: argument) else { return nil }
        self = spec
    }

    public static var allValueStrings: [String] { TransportSpec.accepted }
}

extension ReaderExchange.Termination: ExpressibleByArgument {}
