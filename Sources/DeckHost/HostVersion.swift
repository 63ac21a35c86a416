/// The version `touchdeck --version` prints.
public enum HostVersion {
    public static let string = "0.1.0"
}
