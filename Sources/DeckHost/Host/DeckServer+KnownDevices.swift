import DeckTransport

extension DeckServer {
    /// From now on the transport's front door knows which device ids are paired: the list now, and again
    /// after every pairing, rename or revocation (`DeviceBook` publishes on each change).
    public func publishKnownDevices(to known: KnownDevices) {
        devices.published = known
    }
}
