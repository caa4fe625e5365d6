extension DBusError {
    /// An error reply named `name` with `message`, for the modules over this one (the memberwise
    /// initializer is internal).
    package init(named name: String, message: String) {
        self.init(name: name, message: message)
    }
}
