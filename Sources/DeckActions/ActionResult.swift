/// What a press or key action reports back to the device.
public enum ActionResult: Equatable, Sendable {
    case ok
    /// Failed, with a short reason meant for the device's user.
    case failed(String)
}
