import DeckActions
import DeckWayland
import Foundation

/// Tells the host's user something on the desktop, and asks them (a notification with buttons). The live value
/// runs `notify-send` for news and org.freedesktop.Notifications for questions, and fails quietly when there is
/// no notification server; tests record, or answer.
public struct Notifier: Sendable {
    /// A question with its buttons, in order: each a key (what `ask`'s answer carries) and the label shown.
    public struct Question: Sendable, Equatable {
        public var title: String
        public var body: String
        public var choices: [Choice]

        public struct Choice: Sendable, Equatable {
            public var key: String
            public var label: String
            public init(key: String, label: String) {
                self.key = key
                self.label = label
            }
        }

        public init(title: String, body: String, choices: [Choice]) {
            self.title = title
            self.body = body
            self.choices = choices
        }
    }

    public let notify: @Sendable (_ title: String, _ body: String) -> Void
    /// News with a picture: `image` is the path of a PNG the notification shows (its "image-path" hint).
    public let notifyWithImage: @Sendable (_ title: String, _ body: String, _ image: String) -> Void
    /// Shows `question` and calls `answered` once with the key of the button pressed, or nil when it was closed
    /// without one; returns what withdraws it (then `answered` is not called), or nil when the desktop cannot ask
    /// (no notification server, or one without buttons). Blocks: call it off the actor.
    public let ask:
        @Sendable (_ question: Question, _ answered: @escaping @Sendable (String?) -> Void) -> (@Sendable () -> Void)?

    public init(
        notify: @escaping @Sendable (_ title: String, _ body: String) -> Void,
        ask: @escaping @Sendable (Question, @escaping @Sendable (String?) -> Void) -> (@Sendable () -> Void)? = {
            _, _ in nil
        },
        notifyWithImage: (@Sendable (_ title: String, _ body: String, _ image: String) -> Void)? = nil
    ) {
        self.notify = notify
        self.ask = ask
        self.notifyWithImage = notifyWithImage ?? { title, body, _ in notify(title, body) }
    }

    /// `notify-send` from PATH, detached; no notification daemon or no binary → nothing happens. Questions go
    /// over the session bus when its notification server shows buttons.
    public static let desktop = Notifier(notify: notifySend, ask: askOnTheBus, notifyWithImage: notifySendImage)

    @Sendable private static func notifySend(_ title: String, _ body: String) {
        HostEnvironment.current.startInBackground("notify-send", ["--app-name=TouchDeck", title, body])
    }

    @Sendable private static func notifySendImage(_ title: String, _ body: String, _ image: String) {
        let uri = URL(fileURLWithPath: image).absoluteString
        HostEnvironment.current.startInBackground(
            "notify-send", ["--app-name=TouchDeck", "--hint=string:image-path:\(uri)", title, body])
    }

    @Sendable private static func askOnTheBus(
        _ question: Question, _ answered: @escaping @Sendable (String?) -> Void
    ) -> (@Sendable () -> Void)? {
        guard let notifications = Notifier.notifications, notifications.offersActions() else { return nil }
        let actions: [(key: String, label: String)] = question.choices.map { (key: $0.key, label: $0.label) }
        let handler: @Sendable (DesktopNotifications.Answer) -> Void = { answer in
            if case .action(let key) = answer { answered(key) } else { answered(nil) }
        }
        guard
            let id = try? notifications.ask(
                summary: question.title, body: question.body, actions: actions,
                answered: handler)
        else { return nil }
        return { notifications.withdraw(id) }
    }

    public static let silent = Notifier { _, _ in }

    /// The session bus's notification server, reached once (nil without a session bus when the host started).
    private static let notifications = try? DesktopNotifications()
}
