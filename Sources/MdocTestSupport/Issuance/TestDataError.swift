/// A failure while building test data (never expected; reported as a test error).
package struct TestDataError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
