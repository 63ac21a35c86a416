import CX11
import DeckDesktop
import Foundation

@testable import DeckActions
@testable import DeckX11

/// A private Xvfb of the test's own, so changing its layout (`setxkbmap de`) cannot disturb other
/// suites on the shared display; stopped by PID.
final class PrivateXvfb {
    let name: String
    private let child: ChildExit?

    /// Tries display numbers from a random start until an Xvfb of ours owns one (its lock file holds our
    /// child's pid) and accepts clients: parallel tests may race for a number, and the loser just exits.
    /// `size`: the screen (width×height); `numbers`: where the random start is picked (suites that stop their
    /// server on purpose keep to a range of their own).
    init(size: String = "640x480", numbers: Range<Int> = 300..<600) throws {
        var number = Int.random(in: numbers)
        for _ in 0..<20 {
            let arguments = [
                "/usr/bin/Xvfb", ":\(number)", "-screen", "0", "\(size)x24", "-nolisten", "tcp", "-noreset",
            ]
            let started = try DetachedProcess.spawn(arguments, environment: ["PATH": "/usr/bin:/bin"], directory: "/")
            if Self.waitUntilServing(started, number: number) {
                child = started
                name = ":\(number)"
                return
            }
            kill(started.pid, SIGTERM)
            number += 1
        }
        throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "no Xvfb could start"])
    }

    private static func waitUntilServing(_ child: ChildExit, number: Int) -> Bool {
        for _ in 0..<400 where child.ended == nil {
            let lock = (try? String(contentsOfFile: "/tmp/.X\(number)-lock", encoding: .utf8)) ?? ""
            if Int32(lock.trimmingCharacters(in: .whitespacesAndNewlines)) == child.pid,
                let display = XOpenDisplay(":\(number)")
            {
                XCloseDisplay(display)
                return true
            }
            usleep(25_000)
        }
        return false
    }

    deinit { stop() }

    /// Stops the server now (once: a reaped child's PID may belong to another process by then).
    func stop() {
        guard let child, child.ended == nil else { return }
        kill(child.pid, SIGTERM)
        while child.ended == nil { usleep(5000) }
    }
}

/// A small X client: one focused window that turns KeyPress events into text with XLookupString, the
/// way a plain X application reads typed characters.
final class KeyRecorderWindow {
    private let display: OpaquePointer
    private let window: Window

    init?(display name: String) {
        guard let display = XOpenDisplay(name) else { return nil }
        self.display = display
        let screen = XDefaultScreen(display)
        let root = XRootWindow(display, screen)
        window = XCreateSimpleWindow(display, root, 0, 0, 200, 100, 0, 0, 0)
        XSelectInput(display, window, KeyPressMask | StructureNotifyMask)
        XMapWindow(display, window)
        var event = XEvent()
        repeat { XNextEvent(display, &event) } while event.type != MapNotify
        // No window manager on Xvfb: the client takes the focus itself once it is viewable.
        XSetInputFocus(display, window, RevertToParent, UInt(CurrentTime))
        XSync(display, 0)
    }

    deinit {
        XDestroyWindow(display, window)
        XCloseDisplay(display)
    }

    /// Reads key presses until `count` characters arrived (or nothing arrives for `seconds`).
    func read(count: Int, seconds: Double = 10) -> String {
        var text = ""
        let deadline = Date().addingTimeInterval(seconds)
        while text.count < count && Date() < deadline {
            guard XPending(display) > 0 else {
                usleep(2000)
                continue
            }
            var event = XEvent()
            XNextEvent(display, &event)
            if event.type == MappingNotify {
                // Required of every client: pick up keycodes the injector rebinds.
                XRefreshKeyboardMapping(&event.xmapping)
            } else if event.type == KeyPress {
                text += lookup(&event)
            }
        }
        return text
    }

    private func lookup(_ event: inout XEvent) -> String {
        var buffer = [CChar](repeating: 0, count: 16)
        var keysym: KeySym = 0
        let length = XLookupString(&event.xkey, &buffer, Int32(buffer.count), &keysym, nil)
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
