import ArgumentParser
import MdocBLE
import MdocPresentation
import MdocSession
import MdocTerminal

extension RequestPreset: ExpressibleByArgument {}

extension MdocBLEMode: ExpressibleByArgument {}

extension ReaderTermination: ExpressibleByArgument {}
