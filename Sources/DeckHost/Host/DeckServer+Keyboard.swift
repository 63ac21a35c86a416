import DeckDesktop
import DeckKit
import DeckTransport

/// The desktop's one keyboard, shared by every device's keys (docs/DESIGN.md#typing): each connection's keys land
/// in the order it sent them, and a turn at the keyboard is short — a key, a chord, or at most
/// `TextInput.maxTurnUTF16` units of a text — so one device's long text holds another's keypad for a turn, not
/// for the whole text. A value owned by the host's actor.
struct KeyboardTurns {
    /// Turns at the keyboard, in the order they were asked for.
    var turns = SerialLane()
    /// Each connection's key jobs, in the order it sent them (dropped when it closes; a job already added runs).
    var lanes: [ConnectionID: SerialLane] = [:]
}

extension DeckServer {
    /// Adds `job` to the connection's own key lane: it starts once the connection's earlier key jobs finished.
    func inKeyOrder(of id: ConnectionID, _ job: @escaping @Sendable () async -> Void) {
        keyboard.lanes[id, default: SerialLane()].add(job)
    }

    /// Runs `body` in the next turn at the keyboard (after every turn asked for before) and gives its result.
    func keyboardTurn(_ body: @escaping @Sendable () async -> ActionResult) async -> ActionResult {
        await withCheckedContinuation { done in
            keyboard.turns.add { done.resume(returning: await body()) }
        }
    }

    /// Types cleaned `text` turn by turn, then presses Return when `enter` and only if all of the text landed.
    /// `wanted` is asked before each turn: text whose viewing has ended is not typed further (`endedReason`).
    func typeInTurns(
        _ text: String, enter: Bool, with typing: TypingSink,
        while wanted: @escaping @Sendable () async -> Bool = { true }
    ) async -> ActionResult {
        for piece in TextInput.chunks(text, limit: TextInput.maxTurnUTF16) {
            guard await wanted() else { return .failed(Self.endedReason) }
            let result = await keyboardTurn { await typing.typeText(piece) }
            guard result == .ok else { return result }
        }
        guard enter else { return .ok }
        guard await wanted() else { return .failed(Self.endedReason) }
        return await keyboardTurn { await typing.pressKey(KeyChord(.returnKey)) }
    }

    /// A hotkey's chord or a text key's text, through the desktop's typing in turns at the keyboard; any other
    /// kind is not typed.
    func typingKeyResult(_ kind: Button.Kind) async -> ActionResult {
        let typing = desktop.typing
        switch kind {
        case .hotkey(let chord, _): return await keyboardTurn { await typing.pressKey(chord) }
        case .text(let text, let enter): return await typeInTurns(TextInput.clean(text), enter: enter, with: typing)
        default: return .failed("\(kind.name) keys are not typed")
        }
    }
}
