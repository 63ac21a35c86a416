import DeckDesktop
import DeckKit
import DeckTransport

/// The follow of the computer's clipboard the actor runs for the viewing machine (`followClipboard`).
struct ClipboardFollowing {
    let ticket: UInt64
    /// The clipboard's feed, and the primary selection's when the viewer's user asked for it.
    let feeds: [ClipboardFeed]
    let readers: [Task<Void, Never>]

    func stop() {
        for feed in feeds { feed.stop() }
        for reader in readers { reader.cancel() }
    }
}

// The clipboard (PROTOCOL §6 "Clipboard", DESIGN.md#clipboard): `clipboardSet` from the viewer sets the
// computer's clipboard and presses the paste chord; copies made on the computer go to the viewer as
// `clipboardOffer` (the viewing machine decides who hears them). Nothing of the contents is logged or kept.
extension DeckServer {
    /// Why a device without the permission is refused, with the command that allows it.
    func notAllowedToPasteReason(_ id: ConnectionID) -> String {
        "This device may not use the clipboard. On the computer, run: touchdeck devices allow-clipboard "
            + "\"\(deviceName(of: id) ?? "NAME")\" on"
    }

    static let notViewerPasteReason = "only the device viewing the screen may paste"

    /// Whether the device behind `id` may trade the clipboard (and this desktop has one).
    func clipboardAllowed(for id: ConnectionID) -> Bool {
        guard let deviceId = connections[id]?.session.authorizedDevice else { return false }
        return devices.record(id: deviceId)?.clipboardAllowed == true && desktop.clipboard.unavailable == nil
    }

    /// `clipboardSet` → checked (permission, the desktop, viewing, the content) → the clipboard set and, when
    /// asked, the paste chord pressed in the keypad's lane (in order with the viewer's keys) → one
    /// `clipboardResult`. A device without the permission that says `ask` asks the computer's user once the rest
    /// is checked (DeckServer+ClipboardAsking).
    func clipboardSet(_ request: DeviceMessage.ClipboardSet, from id: ConnectionID) {
        guard let deviceId = connections[id]?.session.authorizedDevice else { return refuseToPaste(id) }
        let allowed = devices.record(id: deviceId)?.clipboardAllowed == true
        guard allowed || request.ask == true else { return refuseToPaste(id) }
        if let reason = desktop.clipboard.unavailable { return clipboardAnswered(.failed(reason), for: id) }
        guard viewing.announcedSerial(of: id) != nil else {
            return clipboardAnswered(.failed(Self.notViewerPasteReason), for: id)
        }
        let content: ClipboardContent
        switch ClipboardRules.content(kind: request.kind, bytes: request.data) {
        case .failure(let refusal): return clipboardAnswered(.failed(refusal.description), for: id)
        case .success(let checked): content = checked
        }
        guard allowed else { return askToPaste(content, paste: request.paste, from: id) }
        paste(content, chord: request.paste, from: id)
    }

    /// The refusal of a device without the clipboard permission (`asked`: what became of its question).
    func refuseToPaste(_ id: ConnectionID, asked: HostMessage.ScreenDenied.Asked? = nil) {
        sendSealed(
            .clipboardResult(.init(ok: false, reason: notAllowedToPasteReason(id), notAllowed: true, asked: asked)),
            to: id)
    }

    /// Sets the clipboard to checked `content` and, when `chord`, presses the paste chord; the device must still be
    /// the viewer.
    func paste(_ content: ClipboardContent, chord: Bool, from id: ConnectionID) {
        guard let deviceId = connections[id]?.session.authorizedDevice else { return }
        guard let serial = viewing.announcedSerial(of: id) else {
            return clipboardAnswered(.failed(Self.notViewerPasteReason), for: id)
        }
        // The device asks for the chord; its owner may have turned it off for this device on the computer.
        let ownerChord = devices.record(id: deviceId)?.pasteChord != false
        let (clipboard, typing, paste) = (desktop.clipboard, desktop.typing, chord && ownerChord)
        let primary = primarySelection(of: deviceId)
        inKeyOrder(of: id) {
            guard await self.isViewing(serial) else {
                return await self.clipboardAnswered(.failed(Self.endedReason), for: id)
            }
            let result = await self.keyboardTurn {
                var written = await clipboard.write(content)
                if written == .ok, let primary { written = await primary.write(content) }
                guard written == .ok, paste else { return written }
                return await typing.pressKey(
                    ClipboardRules.pasteChord(windowClass: await clipboard.focusedWindowClass()))
            }
            await self.clipboardAnswered(result, for: id)
        }
    }

    private func clipboardAnswered(_ result: ActionResult, for id: ConnectionID) {
        switch result {
        case .ok, .running: sendSealed(.clipboardResult(.init(ok: true)), to: id)
        case .failed(let reason): sendSealed(.clipboardResult(.init(ok: false, reason: reason)), to: id)
        }
    }

    /// Starts the follow the machine asked for (returning once the back-end listens); its copies go back to the
    /// machine in the order read. The primary selection is followed too when the viewer's user asked for it.
    func followClipboard(_ ticket: UInt64) {
        clipboardFollowing?.stop()
        let viewer = viewing.viewing.flatMap { connections[$0.connection]?.session.authorizedDevice }
        let primary = viewer.flatMap { primarySelection(of: $0) }
        let feeds = [desktop.clipboard.follow()] + (primary.map { [$0.follow()] } ?? [])
        let readers = feeds.map { feed in
            Task {
                for await copy in feed.copies { self.clipboardCopied(ticket, copy) }
            }
        }
        clipboardFollowing = ClipboardFollowing(ticket: ticket, feeds: feeds, readers: readers)
    }

    /// Ends the follow `ticket`, if it is the one running.
    func stopClipboard(_ ticket: UInt64) {
        guard let following = clipboardFollowing, following.ticket == ticket else { return }
        following.stop()
        clipboardFollowing = nil
    }

    /// `touchdeck devices primary-selection NAME on|off` changed for the connection `id`: a follow under way for
    /// it starts again with (or without) the primary selection.
    func primarySelectionChanged(for id: ConnectionID) {
        guard let following = clipboardFollowing, viewing.viewing?.connection == id else { return }
        followClipboard(following.ticket)
    }

    /// The desktop's primary selection when the device's user asked for it (and the desktop has one).
    private func primarySelection(of deviceId: String) -> PrimarySelection? {
        devices.record(id: deviceId)?.primarySelection == true ? desktop.clipboard.primary : nil
    }

    private func clipboardCopied(_ ticket: UInt64, _ copy: ClipboardCopy) {
        // The viewer is offered nothing for a copy that could not be read; the log says why (never what).
        if case .unreadable(let why) = copy, clipboardFollowing?.ticket == ticket {
            log.notice("a copy on the computer could not be read", ["clipboard.reason": why])
        }
        carryOut(viewing.clipboardCopied(ticket, copy))
    }
}
