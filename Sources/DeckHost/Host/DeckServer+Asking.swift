import DeckKit
import DeckTransport

/// A question the computer's user has (or is about to have) on the desktop: one per connection.
struct ScreenQuestion {
    let serial: UInt64
    /// Set once the notification shows; nil until then.
    var withdraw: (@Sendable () -> Void)?
    /// An answer that came before the notification's id was back (a quick click, a test server).
    var early: ScreenAnswer?
    var timeout: Task<Void, Never>?
}

/// The answers: the notification's buttons, closing it, or no answer in time.
enum ScreenAnswer: Equatable, Sendable {
    case once, always, denied, timedOut

    init(key: String?) {
        switch key {
        case "once": self = .once
        case "always": self = .always
        default: self = .denied
        }
    }
}

// Asking on the computer (PROTOCOL "Who may view"): a device that may not view sends `startScreen{ask:true}`; the
// host's user gets a notification with "Allow once", "Always allow" and "Deny"; the device hears
// `screenPending{asking}` meanwhile, then `screenPermission{allowed:true}` (with `once` for Allow once: that
// viewing only) or `screenDenied{notAllowed, asked}`. A desktop whose notification server shows no buttons gets
// the old refusal (`asked: unavailable`).
extension DeckServer {
    static let screenChoices = [
        Notifier.Question.Choice(key: "once", label: "Allow once"),
        Notifier.Question.Choice(key: "always", label: "Always allow"),
        Notifier.Question.Choice(key: "deny", label: "Deny"),
    ]

    /// `startScreen{ask:true}` from a device that may not view: one question per connection; asking again while
    /// it is open only repeats `screenPending{asking}`.
    func askToView(from id: ConnectionID) {
        guard let deviceId = connections[id]?.session.authorizedDevice else { return }
        if let open = screenQuestions[id] {
            if open.withdraw != nil { sendSealed(.screenPending(.init(reason: .asking)), to: id) }
            return
        }
        questionSerial += 1
        let serial = questionSerial
        screenQuestions[id] = ScreenQuestion(serial: serial)
        let name = devices.record(id: deviceId)?.name ?? deviceId
        let question = Notifier.Question(
            title: "TouchDeck: \(name) asks to view your screen",
            body: "It could see this screen, click and type. Allow once lasts for this viewing.",
            choices: Self.screenChoices)
        let ask = notifier.ask
        Task.detached {
            let withdraw = ask(question) { key in
                Task { await self.answered(id, serial, ScreenAnswer(key: key)) }
            }
            await self.shown(id, serial, withdraw)
        }
    }

    /// The notification shows (`withdraw`), or could not (nil: the old refusal).
    private func shown(_ id: ConnectionID, _ serial: UInt64, _ withdraw: (@Sendable () -> Void)?) {
        guard var question = screenQuestions[id], question.serial == serial else {
            if let withdraw { Task.detached { withdraw() } }  // the connection went meanwhile
            return
        }
        guard let withdraw else {
            screenQuestions[id] = nil
            log.info("asked to view, but the desktop's notifications have no buttons", logMetadata(for: id))
            return sendSealed(.screenDenied(.init(reason: .notAllowed, asked: .unavailable)), to: id)
        }
        question.withdraw = withdraw
        let timeout = askTimeout
        question.timeout = Task {
            try? await Task.sleep(for: timeout)
            guard !Task.isCancelled else { return }
            self.answered(id, serial, .timedOut)
        }
        screenQuestions[id] = question
        log.notice("a device asks to view the screen; the question is on the desktop", logMetadata(for: id))
        sendSealed(.screenPending(.init(reason: .asking)), to: id)
        if let early = question.early { answered(id, serial, early) }
    }

    /// The user's answer, or the timeout.
    private func answered(_ id: ConnectionID, _ serial: UInt64, _ answer: ScreenAnswer) {
        guard var question = screenQuestions[id], question.serial == serial else { return }
        guard let withdraw = question.withdraw else {
            question.early = answer
            screenQuestions[id] = question
            return
        }
        screenQuestions[id] = nil
        question.timeout?.cancel()
        if answer == .timedOut { Task.detached { withdraw() } }
        let metadata = logMetadata(for: id)
        switch answer {
        case .once:
            log.notice("screen viewing allowed once", metadata)
            viewingPasses[id] = false
            sendSealed(.screenPermission(.init(allowed: true, once: true)), to: id)
        case .always:
            guard let deviceId = connections[id]?.session.authorizedDevice else { return }
            do {
                try devices.update(id: deviceId) { $0.screenAllowed = true }
            } catch {
                log.error("could not save the screen permission: \(error)", metadata)
            }
            log.notice("screen viewing allowed", metadata)
            for (other, device) in authorizedConnections where device == deviceId {
                sendSealed(.screenPermission(.init(allowed: true)), to: other)
            }
        case .denied, .timedOut:
            log.notice(
                answer == .denied ? "screen viewing denied" : "nobody answered; screen viewing refused", metadata)
            sendSealed(
                .screenDenied(.init(reason: .notAllowed, asked: answer == .denied ? .denied : .timedOut)), to: id)
        }
    }

    /// The device stopped asking (`stopScreen`, closed): its notification goes.
    func withdrawQuestion(of id: ConnectionID) {
        guard let question = screenQuestions.removeValue(forKey: id) else { return }
        question.timeout?.cancel()
        if let withdraw = question.withdraw { Task.detached { withdraw() } }
    }

    /// After the viewing machine acted: a pass is marked once its viewing began, and goes when it ended.
    func settlePasses() {
        let viewer = viewing.viewing?.connection
        for (id, began) in viewingPasses {
            if id == viewer {
                viewingPasses[id] = true
            } else if began {
                viewingPasses[id] = nil
            }
        }
    }

    private func logMetadata(for id: ConnectionID) -> [String: String] {
        let deviceId = connections[id]?.session.authorizedDevice
        return ["device.name": deviceId.flatMap { devices.record(id: $0)?.name } ?? "?"]
    }
}
