import ArgumentParser
import MdocBLE
import MdocPresentation
import MdocSession

extension RequestPreset: ExpressibleByArgument {}

extension MdocBLEMode: ExpressibleByArgument {}

extension ReaderTermination: ExpressibleByArgument {}
