import ArgumentParser
import MdocBLE
import MdocSession
import MdocTerminal

extension RequestPreset: ExpressibleByArgument {}

extension MdocBLEMode: ExpressibleByArgument {}


extension ReaderExchange.Termination: ExpressibleByArgument {}
