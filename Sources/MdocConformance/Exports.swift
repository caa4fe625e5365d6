// The members of this module's error type are MdocError's, which a file sees only where
// MdocErrors is imported (MemberImportVisibility): importing this module imports it too.
@_exported import MdocErrors
