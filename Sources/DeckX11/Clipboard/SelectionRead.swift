import CX11
import DeckKit
import Foundation

/// One read of the CLIPBOARD another app owns (ICCCM §2.4): its TARGETS, then the data as the chosen target,
/// whole or INCR. Each step must answer before `deadline` (an owner that never answers, or stalls mid-INCR,
/// ends the read as unreadable); what was received is dropped with the read.
struct SelectionRead {
    enum Stage: Equatable {
        /// Asked for TARGETS.
        case targets
        /// Asked for the data as `target`.
        case data(target: Atom)
        /// Receiving INCR chunks of `target`; past the limit only counted (`size`), so a copy too large is offered
        /// with its real size (an INCR owner announces only a lower bound).
        case incremental(target: Atom, received: Data, size: Int)
    }

    var stage = Stage.targets
    /// The owner's timestamp from the XFixes event: conversions name it (ICCCM: never CurrentTime).
    let time: Time
    var deadline: Date

    /// How long an owner has for each step.
    static let patience: TimeInterval = 3

    init(time: Time, now: Date) {
        self.time = time
        deadline = now.addingTimeInterval(Self.patience)
    }

    /// The target to ask for among those offered: text first (an office suite offers a picture of cells beside
    /// their text), then a PNG. An owner that refused TARGETS is asked for UTF8_STRING anyway.
    static func choose(_ offered: [Atom], refused: Bool, atoms: XClipboardConnection.Atoms) -> Atom? {
        if refused { return atoms.utf8 }
        return [atoms.utf8, atoms.textPlain, atoms.string, atoms.png].first { offered.contains($0) }
    }

    /// What `target`'s data is once received: text (STRING is Latin-1), or a checked PNG.
    static func copy(of bytes: Data, target: Atom, atoms: XClipboardConnection.Atoms) -> ClipboardCopy {
        if target == atoms.png {
            switch ClipboardRules.inspectPNG(bytes) {
            case .success: return .content(.png(bytes))
            case .failure(.tooManyPixels(let pixels)): return .tooLarge(.image, size: bytes.count, pixels: pixels)
            case .failure: return .unreadable("the copied image is not a PNG file")
            }
        }
        if target == atoms.string { return .content(.text(String(decoding: bytes.map { UInt16($0) }, as: UTF16.self))) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .unreadable("the copied text is not UTF-8")
        }
        return .content(.text(text))
    }

    /// The kind `target` carries.
    static func kind(of target: Atom, atoms: XClipboardConnection.Atoms) -> ClipboardKind {
        target == atoms.png ? .image : .text
    }
}

/// One INCR transfer the host serves to a requestor (ICCCM §2.7.2): each time the requestor deletes the
/// property, the next chunk goes in; a zero-length chunk ends it. A requestor that stops deleting is dropped
/// after `SelectionRead.patience`.
struct SelectionTransfer {
    let requestor: Window
    let property: Atom
    let type: Atom
    let data: Data
    var offset = 0
    var deadline: Date
}
