import DeckKit
import DeckTransport

// The clipboard while viewing (DESIGN.md#clipboard): the computer's clipboard is followed only while a device
// allowed to views (from `screenStarted` to the stop), and each copy is offered to that viewer alone.
extension ViewingMachine {
    /// Starts following for a running viewing whose device may, unless a follow runs already.
    mutating func followClipboard() -> [Action] {
        guard case .running(let current, _) = stage, current.clipboardAllowed, current.clipboard == nil else {
            return []
        }
        let ticket = nextTicket()
        update { $0.clipboard = ticket }
        return [.followClipboard(ticket: ticket)]
    }

    /// `allow-clipboard` changed for the device behind `id` (already checked against the desktop having a
    /// clipboard when on): a viewing under way starts or stops following at once.
    mutating func clipboardPermission(of id: ConnectionID, allowed: Bool) -> [Action] {
        guard let current = viewing, current.connection == id else { return [] }
        update { $0.clipboardAllowed = allowed }
        if allowed { return followClipboard() }
        guard let ticket = current.clipboard else { return [] }
        update { $0.clipboard = nil }
        return [.stopClipboard(ticket: ticket)]
    }

    /// The follow `ticket` read a copy: offered to the viewer if that follow is still the current one.
    func clipboardCopied(_ ticket: UInt64, _ copy: ClipboardCopy) -> [Action] {
        guard case .running(let current, _) = stage, current.clipboard == ticket,
            let offer = HostMessage.ClipboardOffer(copy)
        else { return [] }
        return [.send(.clipboardOffer(offer), to: current.connection)]
    }
}
