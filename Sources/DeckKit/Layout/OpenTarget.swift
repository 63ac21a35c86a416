/// What an open key may open (PROTOCOL §6 "Layout"): a web or mail address, or a file or folder by its path.
/// Nothing that a handler would run as code (`javascript:`, `file:` with a query, a desktop entry by URL), and no
/// relative path, whose meaning would depend on the host's working folder.
public enum OpenTarget {
    public static let schemes = ["http://", "https://", "mailto:"]

    public static func isAllowed(_ target: String) -> Bool {
        guard !target.isEmpty, !target.contains(where: { $0.isNewline || $0 == "\0" }) else { return false }
        let lower = target.lowercased()
        if let scheme = schemes.first(where: { lower.hasPrefix($0) }) { return lower.count > scheme.count }
        return target.hasPrefix("/") || target == "~" || target.hasPrefix("~/")
    }
}
