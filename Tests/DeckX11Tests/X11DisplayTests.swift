import CX11
import DeckDesktop
import Testing

@testable import DeckX11

/// `XDisplay`, the one owner of every X connection the host opens, against a private Xvfb: a server that goes
/// away is noted and the process carries on (libX11's default handlers would exit(1), ending this test process
/// too), and a lost display is let go without a hang.
/// Each test has display numbers of its own (the tests run at the same time): a test that stops its server and
/// then expects nobody at that number must not find a neighbour's server started there meanwhile.
@Suite struct X11DisplayTests {
    typealias PrivateServer = X11ScreenTests.PrivateServer

    @Test func aDisplayNobodyServesIsNotOpened() throws {
        let server = try PrivateServer(width: 320, height: 200, firstDisplay: 1000)
        #expect(XDisplay(name: server.display) != nil)
        server.stop()
        #expect(XDisplay(name: server.display) == nil)
    }

    @Test func aServerThatGoesAwayIsNotedAtTheNextRoundTrip() throws {
        let server = try PrivateServer(width: 320, height: 200, firstDisplay: 1020)
        let display = try #require(XDisplay(name: server.display))
        #expect(display.hasXTest)
        XSync(display.handle, 0)
        #expect(!display.isLost)
        server.stop()
        XSync(display.handle, 0)
        #expect(display.isLost)
        // Dropping it now closes the socket by hand: XCloseDisplay on a lost display can wait forever.
    }

    @Test func aDisplayLetGoAfterItsServerWentAwayUnnoticedClosesWithoutATrap() throws {
        let server = try PrivateServer(width: 320, height: 200, firstDisplay: 1040)
        var display = XDisplay(name: server.display)
        // A request left in Xlib's buffer: closing flushes it, the first I/O error, from inside `deinit`.
        XNoOp(try #require(display).handle)
        server.stop()
        #expect(display?.isLost == false)
        // The exit handler runs while the object is torn down: had it been handed `self` rather than a box of
        // its own, taking a reference here would trap and end the test process.
        display = nil
    }

    /// The error handler is the process's; each error is noted for its own display. An error on another connection
    /// (the clipboard's BadWindow when a requestor has gone) between a grab's clear and its check would otherwise
    /// fail the grab and end a viewer's capture.
    @Test func anErrorOnOneDisplayIsNotTakenForAnotherDisplaysOwn() throws {
        let server = try PrivateServer(width: 320, height: 200, firstDisplay: 1060)
        defer { server.stop() }
        let grabbing = try #require(XDisplay(name: server.display))
        let other = try #require(XDisplay(name: server.display))
        XErrorTrap.install()
        XErrorTrap.clear(grabbing.handle)
        XErrorTrap.clear(other.handle)
        XMapWindow(other.handle, 0x3ff_fff0)  // no such window
        XSync(other.handle, 0)
        #expect(XErrorTrap.last(other.handle) == UInt8(BadWindow))
        #expect(XErrorTrap.last(grabbing.handle) == 0)
        XSync(grabbing.handle, 0)
        #expect(XErrorTrap.last(grabbing.handle) == 0)
    }
}
