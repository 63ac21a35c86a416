import DeckKit
import DeckTransport

/// A paste waiting for the computer's user: one per connection. The content stays in memory only until the answer.
struct ClipboardQuestion {
    let serial: UInt64
    let content: ClipboardContent
    let chord: Bool
    /// Set once the notification shows; nil until then.
    var withdraw: (@Sendable () -> Void)?
    /// An answer that came before the notification's id was back.
    var early: ScreenAnswer?
    var timeout: Task<Void, Never>?
}

// Asking to paste (PROTOCOL "Clipboard"), as the screen's asking (DeckServer+Asking): the viewer without the
// clipboard permission sends `clipboardSet{ask:true}`; once the rest is checked the computer's user gets a
// notification with "Allow once", "Always allow" and "Deny", and the one `clipboardResult` follows the answer:
// Allow once pastes this content, Always allow sets the device's permission and pastes, Deny and no answer refuse
// (`notAllowed`, `asked`), and a desktop whose notifications have no buttons refuses at once (`asked: unavailable`).
extension DeckServer {
    static let alreadyAskingReason = "the computer's user has this device's question already; wait for the answer"

    func askToPaste(_ content: ClipboardContent, paste chord: Bool, from id: ConnectionID) {
        guard let deviceId = connections[id]?.session.authorizedDevice else { return }
        guard clipboardQuestions[id] == nil else {
            return sendSealed(.clipboardResult(.init(ok: false, reason: Self.alreadyAskingReason)), to: id)
        }
        questionSerial += 1
        let serial = questionSerial
        clipboardQuestions[id] = ClipboardQuestion(serial: serial, content: content, chord: chord)
        let name = devices.record(id: deviceId)?.name ?? deviceId
        let what = content.kind == .text ? "text" : "an image"
        let question = Notifier.Question(
            title: "TouchDeck: \(name) asks to paste on this computer",
            body: "It would put \(what) on this computer's clipboard and paste it. Allow once is for this paste.",
            choices: Self.screenChoices)
        let ask = notifier.ask
        Task.detached {
            let withdraw = ask(question) { key in
                Task { await self.pasteAnswered(id, serial, ScreenAnswer(key: key)) }
            }
            await self.pasteQuestionShown(id, serial, withdraw)
        }
    }

    /// The notification shows (`withdraw`), or could not (nil: the old refusal).
    private func pasteQuestionShown(_ id: ConnectionID, _ serial: UInt64, _ withdraw: (@Sendable () -> Void)?) {
        guard var question = clipboardQuestions[id], question.serial == serial else {
            if let withdraw { Task.detached { withdraw() } }  // the connection went meanwhile
            return
        }
        guard let withdraw else {
            clipboardQuestions[id] = nil
            log.info("asked to paste, but the desktop's notifications have no buttons", pasteMetadata(for: id))
            return refuseToPaste(id, asked: .unavailable)
        }
        question.withdraw = withdraw
        let timeout = askTimeout
        question.timeout = Task {
            try? await Task.sleep(for: timeout)
            guard !Task.isCancelled else { return }
            self.pasteAnswered(id, serial, .timedOut)
        }
        clipboardQuestions[id] = question
        log.notice("a device asks to paste; the question is on the desktop", pasteMetadata(for: id))
        if let early = question.early { pasteAnswered(id, serial, early) }
    }

    /// The user's answer, or the timeout.
    private func pasteAnswered(_ id: ConnectionID, _ serial: UInt64, _ answer: ScreenAnswer) {
        guard var question = clipboardQuestions[id], question.serial == serial else { return }
        guard let withdraw = question.withdraw else {
            question.early = answer
            clipboardQuestions[id] = question
            return
        }
        clipboardQuestions[id] = nil
        question.timeout?.cancel()
        if answer == .timedOut { Task.detached { withdraw() } }
        let metadata = pasteMetadata(for: id)
        switch answer {
        case .once:
            log.notice("pasting allowed once", metadata)
            paste(question.content, chord: question.chord, from: id)
        case .always:
            guard let deviceId = connections[id]?.session.authorizedDevice else { return }
            do {
                try devices.update(id: deviceId) { $0.clipboardAllowed = true }
            } catch {
                log.error("could not save the clipboard permission: \(error)", metadata)
            }
            log.notice("clipboard allowed", metadata)
            for (other, device) in authorizedConnections where device == deviceId {
                carryOut(viewing.clipboardPermission(of: other, allowed: clipboardAllowed(for: other)))
            }
            paste(question.content, chord: question.chord, from: id)
        case .denied, .timedOut:
            log.notice(answer == .denied ? "pasting denied" : "nobody answered; pasting refused", metadata)
            refuseToPaste(id, asked: answer == .denied ? .denied : .timedOut)
        }
    }

    /// The connection closed: its question goes, and the content with it.
    func withdrawPasteQuestion(of id: ConnectionID) {
        guard let question = clipboardQuestions.removeValue(forKey: id) else { return }
        question.timeout?.cancel()
        if let withdraw = question.withdraw { Task.detached { withdraw() } }
    }

    private func pasteMetadata(for id: ConnectionID) -> [String: String] {
        ["device.name": deviceName(of: id) ?? "?"]
    }
}
