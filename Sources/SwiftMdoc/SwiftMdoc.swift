// One import for an application built on swift-mdoc: every library module a holder or a reader
// uses, re-exported (docs/architecture.md section 2).
@_exported import MdocBLE
@_exported import MdocCBOR
@_exported import MdocCOSE
@_exported import MdocCapture
@_exported import MdocConformance
@_exported import MdocCrypto
@_exported import MdocErrors
@_exported import MdocFiles
@_exported import MdocHTTP
@_exported import MdocInspection
@_exported import MdocModel
@_exported import MdocNFC
@_exported import MdocOnline
@_exported import MdocPresentation
@_exported import MdocQR
@_exported import MdocRadios
@_exported import MdocSession
@_exported import MdocStatusList
@_exported import MdocStores
@_exported import MdocText
