/// A class whose job is Xlib calls on one `XDisplay` it holds (the keypad's, the pointer's, the screen
/// source's, the lock probe's connection): the handle and the loss are read here, the same way for each.
package protocol XDisplayUser: AnyObject {
    var connection: XDisplay { get }
}

extension XDisplayUser {
    /// The `Display*`, for the user's Xlib calls.
    package var display: OpaquePointer { connection.handle }

    /// Set when Xlib reports the connection lost (the server quit); the owner then opens a new one.
    package var isBroken: Bool { connection.isLost }

    /// Whether the server speaks XTest.
    package var hasXTest: Bool { connection.hasXTest }
}
