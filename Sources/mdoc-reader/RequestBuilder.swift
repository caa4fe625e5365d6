import ArgumentParser
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
/// Each doc type gets the same element identifiers, in its own name space: the name space
/// ``DocTypeNames`` lists for a doc type the toolkit knows, or `--namespace` for another one. A
/// preset's elements are asked for in each name space that defines them (`full`: every element
/// the catalogue lists there). Every problem is a usage error naming the option.
struct RequestBuilder {
    var docTypes: [String]
    var nameSpace: String?
    var elements: String?
    var preset: RequestPreset?
    var intentToRetain: Bool

    func specs() throws(ValidationError) -> [DocRequestSpec] {
        let types = docTypes.isEmpty ? [DocType.mDL] : docTypes.map(DocTypeNames.docType(for:))
        var specs: [DocRequestSpec] = []
        for (index, docType) in types.enumerated() {
            guard let space = nameSpace ?? DocTypeNames.nameSpace(of: docType) else {
                throw ValidationError(
                    "--doctype \(docTypes[index]): not a doc type the toolkit knows; give its --namespace too, or one of \(DocTypeNames.listText)")
            }
            let identifiers = try self.identifiers(in: space)
            guard !identifiers.isEmpty else {
                throw ValidationError("--preset \((preset ?? .driving).rawValue) names no element of \(space); use --elements for \(docType)")
            }
            var requested = OrderedMap<String, Bool>()
            for identifier in identifiers {
                requested[identifier] = intentToRetain
            }
            specs.append(DocRequestSpec(docType: docType, nameSpaces: [space: requested]))
        }
        return specs
    }

    private func identifiers(in space: String) throws(ValidationError) -> [String] {
        if let elements {
            let list = elements.split(separator: ",").map(\.trimmingSpaces).filter { !$0.isEmpty }
            guard !list.isEmpty else {
                throw ValidationError("--elements names no element")
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
