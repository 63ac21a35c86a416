import CX11
import DeckDesktop
import DeckX11
import Foundation
import Testing

@testable import DeckX11

/// The X11 back-end against a private Xvfb (its own, so windows other tests open on the shared test display
/// cannot cover what is painted): monitors, grabs through shared memory, and a server that goes away.
@Suite struct X11ScreenTests {
    /// An Xvfb on a display number it picks itself, or on `number` (either way reported on its standard output
    /// by -displayfd once it accepts connections; a number already taken makes it exit and `init` throw).
    ///
    /// Started with posix_spawn and an empty signal mask: a child started from a test thread (Foundation's
    /// Process included) inherits that thread's blocked signals, and an Xvfb with SIGTERM blocked never stops.
    final class PrivateServer {
        private var pid: pid_t = 0
        let display: String

        /// A server on the lowest free display number, or from `firstDisplay` up when given: suites that run at
        /// the same time use ranges of their own, so a test's server never takes the number another test's
        /// server just gave up (that test would find a display where it expects none).
        /// `number`: exactly that display (a server restarted in the place of one that went away).
        init(width: Int, height: Int, number: Int? = nil, firstDisplay: Int? = nil) throws {
            let options = ["-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp", "-noreset"]
            if let number {
                (pid, display) = try Self.start([":\(number)"] + options)
                return
            }
            guard let firstDisplay else {
                (pid, display) = try Self.start(options)
                return
            }
            for number in firstDisplay..<firstDisplay + 100 {
                // A taken number makes Xvfb exit without reporting one; then the next is tried.
                if let started = try? Self.start([":\(number)"] + options) {
                    (pid, display) = started
                    return
                }
            }
            throw POSIXError(.EADDRINUSE)
        }

        /// Starts Xvfb with `options` and waits until it reports its display number (-displayfd).
        private static func start(_ options: [String]) throws -> (pid_t, String) {
            var pipeEnds: [Int32] = [0, 0]
            guard pipe(&pipeEnds) == 0 else { throw POSIXError(.EMFILE) }
            let pid = try Self.spawn(["/usr/bin/Xvfb", "-displayfd", "1"] + options, stdout: pipeEnds[1])
            close(pipeEnds[1])
            defer { close(pipeEnds[0]) }
            var number = ""
            var byte: UInt8 = 0
            while read(pipeEnds[0], &byte, 1) == 1, byte != UInt8(ascii: "\n") {
                number.append(Character(UnicodeScalar(byte)))
            }
            guard !number.isEmpty else {
                var status: Int32 = 0
                waitpid(pid, &status, 0)
                throw POSIXError(.ENOENT)
            }
            return (pid, ":" + number)
        }

        private static func spawn(_ arguments: [String], stdout: Int32) throws -> pid_t {
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, stdout, 1)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var none = sigset_t()
            sigemptyset(&none)
            posix_spawnattr_setsigmask(&attributes, &none)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
            let argv = arguments.map { strdup($0) } + [nil]
            defer { for argument in argv { free(argument) } }
            var pid: pid_t = 0
            let status = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environ)
            guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EINVAL) }
            return pid
        }

        func stop() {
            guard pid > 0 else { return }
            kill(pid, SIGTERM)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            pid = 0
        }

        deinit { stop() }

        /// Fills rectangles (x, y, width, height, 0xRRGGBB) on the root window and waits until they are drawn.
        func paint(_ rectangles: [(Int32, Int32, UInt32, UInt32, UInt)]) {
            guard let display = XOpenDisplay(display) else { return }
            defer { XCloseDisplay(display) }
            let root = XDefaultRootWindow(display)
            let gc = XCreateGC(display, root, 0, nil)
            defer { XFreeGC(display, gc) }
            for (x, y, width, height, colour) in rectangles {
                XSetForeground(display, gc, colour)
                XFillRectangle(display, root, gc, x, y, width, height)
            }
            XSync(display, 0)
        }
    }

    func pixel(_ image: ScreenImage, _ x: Int, _ y: Int) -> [UInt8] {
        let at = y * image.stride + x * 4
        return Array(image.pixels[at..<at + 3])
    }

    @Test func aServerWithoutMonitorListsItsOutputAsOneMonitorAndGrabsItsColours() async throws {
        let server = try PrivateServer(width: 1280, height: 720)
        defer { server.stop() }
        server.paint([(0, 0, 640, 720, 0xFF0000), (640, 0, 640, 720, 0x0000FF), (100, 200, 1, 1, 0x10_20_30)])
        let source = ScreenSource.x11(display: server.display)
        let monitors = try await source.monitors()
        #expect(monitors.map(\.name) == ["screen"])
        #expect(monitors.map(\.frame) == [PixelRect(x: 0, y: 0, width: 1280, height: 720)])
        let image = try await source.grab(monitors[0])
        #expect(image.width == 1280 && image.height == 720 && image.stride >= 1280 * 4)
        #expect(image.format == .bgrx)
        #expect(pixel(image, 0, 0) == [0, 0, 255])
        #expect(pixel(image, 1279, 719) == [255, 0, 0])
        #expect(pixel(image, 100, 200) == [0x30, 0x20, 0x10])
    }

    @Test func aGrabGoesThroughSharedMemoryAndSeesOnlyItsMonitor() throws {
        let server = try PrivateServer(width: 800, height: 600)
        defer { server.stop() }
        server.paint([(0, 0, 800, 600, 0x000000), (300, 100, 200, 50, 0x00FF00)])
        let connection = try #require(XDisplay(name: server.display).map(XScreenConnection.init))
        let inner = Monitor(id: 1, name: "inner", frame: PixelRect(x: 300, y: 100, width: 200, height: 50))
        let image = try connection.grab(inner)
        #expect(connection.mayShareMemory)
        #expect(image.width == 200 && image.height == 50)
        #expect(pixel(image, 0, 0) == [0, 255, 0] && pixel(image, 199, 49) == [0, 255, 0])
    }

    @Test func aMonitorPartlyOffTheScreenIsGrabbedWhereItStillIsAndOneFullyOffIsGone() throws {
        let server = try PrivateServer(width: 800, height: 600)
        defer { server.stop() }
        let connection = try #require(XDisplay(name: server.display).map(XScreenConnection.init))
        let overhanging = Monitor(id: 1, name: "m", frame: PixelRect(x: 600, y: 500, width: 400, height: 300))
        let image = try connection.grab(overhanging)
        #expect(image.width == 200 && image.height == 100)
        let gone = Monitor(id: 2, name: "g", frame: PixelRect(x: 900, y: 0, width: 100, height: 100))
        #expect(throws: ScreenSourceError.noSuchMonitor) { try connection.grab(gone) }
    }

    @Test func aServerThatGoesAwayIsReportedAsNoDisplayAndTheHostCarriesOn() async throws {
        // Numbers of its own: a neighbour's server started on the freed number would answer the second call.
        let server = try PrivateServer(width: 640, height: 480, firstDisplay: 1200)
        let source = ScreenSource.x11(display: server.display)
        #expect(try await source.monitors().count == 1)
        server.stop()
        await #expect(throws: ScreenSourceError.noDisplay) { try await source.monitors() }
        // The next call tries to open the display again, and finds none.
        await #expect(throws: ScreenSourceError.noDisplay) { try await source.monitors() }
    }
}
