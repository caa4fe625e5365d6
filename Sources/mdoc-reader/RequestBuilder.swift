import MdocModel
import MdocSession
import MdocTerminal

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns `--doctype`, `--namespace`, `--elements`, `--preset` and `--retain` into the
/// DocRequests of a DeviceRequest (ISO/IEC 18013-5 8.3.2.1.2.1).
///
/// Each doc type gets the same element identifiers, in its own name space: the mDL's
/// `org.iso.18013.5.1`, the EU PID's `eu.europa.ec.eudi.pid.1`, or `--namespace` for another doc
/// type. A preset's elements are asked for in each name space that defines them (`full`: every
/// element the catalogue lists there).
struct RequestBuilder {
    var docTypes: [String]
    var nameSpace: String?
    var elements: String?
    var preset: RequestPreset?
    var intentToRetain: Bool

    /// Short names `--doctype` accepts.
    static let aliases = ["mdl": DocType.mDL, "pid": DocType.eudiPID]
    /// The name space of the doc types the toolkit knows.
    static let nameSpaces = [DocType.mDL: NameSpace.mDL, DocType.eudiPID: NameSpace.eudiPID]

    func specs() throws(ProgramFailure) -> [DocRequestSpec] {
        let types = docTypes.isEmpty ? [DocType.mDL] : docTypes.map { Self.aliases[$0.lowercased()] ?? $0 }
        var specs: [DocRequestSpec] = []
        for docType in types {
            guard let space = nameSpace ?? Self.nameSpaces[docType] else {
                throw ProgramFailure(.badTrustInput, "--doctype \(docType): give --namespace for a doc type the toolkit does not know")
            }
            let identifiers = try self.identifiers(in: space)
            guard !identifiers.isEmpty else {
                throw ProgramFailure(
                    .badTrustInput,
                    "--preset \((preset ?? .driving).rawValue) names no element of \(space); use --elements for \(docType)")
            }
            var requested = OrderedMap<String, Bool>()
            for identifier in identifiers {
                requested[identifier] = intentToRetain
            }
            specs.append(DocRequestSpec(docType: docType, nameSpaces: [space: requested]))
        }
        return specs
    }

    private func identifiers(in space: String) throws(ProgramFailure) -> [String] {
        if let elements {
            let list = elements.split(separator: ",").map(\.trimmingSpaces).filter { !$0.isEmpty }
            guard !list.isEmpty else {
                throw ProgramFailure(.badTrustInput, "--elements names no element")
            }
            return list
        }
        let preset = preset ?? .driving
        if preset == .full {
            return DataElementCatalogue.identifiers(in: space)
        }
        // The catalogue knows patterns too (age_over_NN), so ask it by name.
        return preset.elementIdentifiers.filter {
            space == preset.nameSpace || DataElementCatalogue.name(of: $0, in: space) != nil
        }
    }
}
