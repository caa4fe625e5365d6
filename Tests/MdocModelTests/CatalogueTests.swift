import MdocCBOR
import MdocModel
import Testing

@Suite("Data element catalogue and OrderedMap")
struct CatalogueTests {
    @Test("Table 5 elements, AAMVA and PID have readable names")
    func names() {
        let table5 = [
            "family_name", "given_name", "birth_date", "issue_date", "expiry_date", "issuing_country",
            "issuing_authority", "document_number", "portrait", "driving_privileges", "un_distinguishing_sign",
            "administrative_number", "sex", "height", "weight", "eye_colour", "hair_colour", "birth_place",
            "resident_address", "portrait_capture_date", "age_in_years", "age_birth_year", "issuing_jurisdiction",
            "nationality", "resident_city", "resident_state", "resident_postal_code", "resident_country",
            "family_name_national_character", "given_name_national_character", "signature_usual_mark",
        ]
        for identifier in table5 {
            #expect(DataElementCatalogue.name(of: identifier, in: NameSpace.mDL) != nil, "\(identifier)")
        }
        #expect(Set(DataElementCatalogue.identifiers(in: NameSpace.mDL)) == Set(table5))
        #expect(DataElementCatalogue.name(of: "document_number", in: NameSpace.mDL) == "Licence number")
        #expect(DataElementCatalogue.name(of: "age_over_21", in: NameSpace.mDL) == "Age over 21")
        #expect(DataElementCatalogue.name(of: "age_over_18", in: NameSpace.eudiPID) == "Age over 18")
        #expect(DataElementCatalogue.name(of: "age_over_1", in: NameSpace.mDL) == nil)
        #expect(DataElementCatalogue.name(of: "age_over_123", in: NameSpace.mDL) == nil)
        #expect(DataElementCatalogue.name(of: "age_over_2x", in: NameSpace.mDL) == nil)
        #expect(DataElementCatalogue.name(of: "age_over_21", in: NameSpace.aamva) == nil)
        for identifier in ["domestic_driving_privileges", "name_suffix", "organ_donor", "veteran", "family_name_truncation",
                           "given_name_truncation", "aka_family_name", "sex", "DHS_compliance", "EDL_credential"] {
            #expect(DataElementCatalogue.name(of: identifier, in: NameSpace.aamva) != nil, "\(identifier)")
        }
        for identifier in ["family_name", "given_name", "birth_date", "nationality", "issuing_authority", "issuing_country",
                           "expiry_date", "issuance_date", "document_number"] {
            #expect(DataElementCatalogue.name(of: identifier, in: NameSpace.eudiPID) != nil, "\(identifier)")
        }
        #expect(DataElementCatalogue.name(of: "family_name", in: "com.example") == nil)
        #expect(DataElementCatalogue.identifiers(in: "com.example").isEmpty)
        #expect(DataElementCatalogue.displayName(of: "x_custom", in: NameSpace.mDL) == "x_custom")
        #expect(DataElementCatalogue.displayName(of: "given_name", in: NameSpace.mDL) == "Given names")
        #expect(DocType.mDL == "org.iso.18013.5.1.mDL" && DocType.eudiPID == "eu.europa.ec.eudi.pid.1")
    }

    @Test("OrderedMap keeps insertion order, replaces in place, removes")
    func orderedMap() {
        var map: OrderedMap<String, Int> = ["b": 1, "a": 2]
        map["c"] = 3
        map["b"] = 4
        #expect(map.keys == ["b", "a", "c"])
        #expect(map.values == [4, 2, 3])
        map["a"] = nil
        #expect(map.keys == ["b", "c"] && map.count == 2 && !map.isEmpty)
        #expect(map != ["c": 3, "b": 4])
        #expect(map == ["b": 4, "c": 3])
        #expect(Array(map.map(\.key)) == ["b", "c"])
        #expect(OrderedMap([(key: "x", value: 1), (key: "x", value: 2)]).elements.map(\.value) == [2])
        #expect(OrderedMap<String, Int>().isEmpty)
    }

    @Test("status and code descriptions")
    func descriptions() {
        #expect(SessionData.Status.sessionTermination.description == "session termination (20)")
        #expect(DeviceResponse.Status.ok.description == "OK (0)")
        #expect(ErrorCode.dataNotReturned.description == "data not returned (0)")
        #expect(ErrorCode(rawValue: 7).description == "error code 7")
        #expect(DeviceRetrievalMethod.MethodType.ble.description == "BLE")
        #expect(Security.CipherSuiteIdentifier.suite1.rawValue == 1)
    }
}
