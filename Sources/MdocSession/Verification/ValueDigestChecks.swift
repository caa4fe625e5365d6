import MdocCBOR
import MdocModel

/// The ``VerificationCheck/Kind/valueDigest`` checks of one name space's returned
/// IssuerSignedItems (9.3.1 step 3), one per item in received order: the outcome of each is kept,
/// and the check is built from its item when it is read.
struct ValueDigestChecks: ReportRun {
    /// The name space of the items.
    let nameSpace: String
    /// The items as the document holds them.
    let items: [EmbeddedCBOR<IssuerSignedItem>]
    /// How the check of each item ended, by position.
    let outcomes: [VerificationCheck.Outcome]

    /// The checks of `items`, which ended with `outcomes`, one for each.
    init(nameSpace: String, items: [EmbeddedCBOR<IssuerSignedItem>], outcomes: [VerificationCheck.Outcome]) {
        precondition(items.count == outcomes.count, "a value digest check per item")
        self.nameSpace = nameSpace
        self.items = items
        self.outcomes = outcomes
    }

    var count: Int { items.count }

    subscript(offset: Int) -> VerificationCheck {
        let item = items[offset].value
        return VerificationCheck(
            .valueDigest, subject: .element(nameSpace: nameSpace, identifier: item.elementIdentifier), outcome: outcomes[offset],
            detail: .digestID(item.digestID))
    }
}
