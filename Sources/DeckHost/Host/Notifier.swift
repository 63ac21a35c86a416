import Foundation

/// Tells the host's user something on the desktop. The live value runs `notify-send` and fails quietly
/// when there is none; tests record.
public struct Notifier: Sendable {
    public let notify: @Sendable (_ title: String, _ body: String) -> Void

    public init(notify: @escaping @Sendable (_ title: String, _ body: String) -> Void) { self.notify = notify }

    /// `notify-send` from PATH, detached; no notification daemon or no binary → nothing happens.
    public static let desktop = Notifier { title, body in
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["notify-send", "--app-name=TouchDeck", title, body]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try? process.run()
    }

    public static let silent = Notifier { _, _ in }
}
