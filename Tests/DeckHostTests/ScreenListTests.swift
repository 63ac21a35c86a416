import DeckDesktop
import DeckKit
import DeckTesting
import Foundation
import Synchronization
import Testing

@testable import DeckHost

/// `listDisplays` through the host's actor with a fake screen source (PROTOCOL §6 "Screen", DESIGN.md#viewing): who may
/// see the monitors, thumbnails taken only when asked and shrunk to 320 px, and a host with no display.
@Suite struct ScreenListTests {
    static let right = Monitor(id: 71, name: "DP-2", frame: PixelRect(x: 640, y: 0, width: 640, height: 360))
    static let left = Monitor(id: 70, name: "HDMI-1", frame: PixelRect(x: 0, y: 0, width: 300, height: 600))

    /// A source with both monitors (listed right first: the host must still answer left to right) that counts
    /// every call, and paints each monitor one colour.
    final class CountingSource: Sendable {
        let listings = Mutex(0)
        let grabs = Mutex<[String]>([])

        var source: ScreenSource {
            ScreenSource(
                monitors: {
                    self.listings.withLock { $0 += 1 }
                    return [ScreenListTests.right, ScreenListTests.left]
                },
                grab: { monitor in
                    self.grabs.withLock { $0.append(monitor.name) }
                    let (width, height) = (monitor.frame.width, monitor.frame.height)
                    return monitor == ScreenListTests.left
                        ? .solid(width: width, height: height, blue: 0, green: 0, red: 255)
                        : .solid(width: width, height: height, blue: 255, green: 0, red: 0)
                })
        }
    }

    func collectDisplays(_ device: inout HostHarness.Device) async -> [HostMessage.Displays] {
        var seen: [HostMessage.Displays] = []
        for _ in 0..<10_000 where seen.isEmpty {
            seen += device.inbox().compactMap { if case .displays(let d) = $0 { d } else { nil } }
            if seen.isEmpty { try? await Task.sleep(for: .milliseconds(1)) }
        }
        return seen
    }

    func list(_ device: inout HostHarness.Device, on host: DeckServer) async -> HostMessage.Displays? {
        _ = device.inbox()
        await device.send(.listDisplays(.init()), to: host)
        let answers = await collectDisplays(&device)
        #expect(answers.count == 1)
        return answers.first
    }

    func allow(_ name: String, _ on: Bool, on host: DeckServer) async {
        let response = await host.control(ControlRequest(command: .allowScreen, name: name, on: on))
        #expect(response.error == nil)
    }

    @Test func aDeviceNotAllowedGetsAnEmptyListAndTheDesktopIsNotTouched() async throws {
        let counting = CountingSource()
        let harness = try HostHarness(desktop: .fake(screen: counting.source))
        var device = try await harness.authorize(try await harness.pair(name: "iPad"))
        let answer = await list(&device, on: harness.host)
        #expect(answer == HostMessage.Displays(displays: [], status: .notAllowed))
        #expect(counting.listings.withLock { $0 } == 0)
        #expect(counting.grabs.withLock { $0 } == [])
    }

    @Test func anAllowedDeviceGetsEveryMonitorLeftToRightWithA320PixelThumbnail() async throws {
        let counting = CountingSource()
        let harness = try HostHarness(desktop: .fake(screen: counting.source))
        var device = try await harness.authorize(try await harness.pair(name: "iPad"))
        await allow("iPad", true, on: harness.host)
        let answer = try #require(await list(&device, on: harness.host))
        #expect(answer.status == .ok)
        #expect(answer.displays.map(\.id) == [70, 71])
        #expect(answer.displays.map(\.name) == ["HDMI-1", "DP-2"])
        #expect(answer.displays.map(\.width) == [300, 640])
        #expect(answer.displays.map(\.height) == [600, 360])
        let sizes = answer.displays.map { $0.thumbnail.flatMap(JPEGSize.init(dataURL:)) }
        #expect(sizes == [JPEGSize(width: 160, height: 320), JPEGSize(width: 320, height: 180)])
    }

    @Test func picturesAreTakenOnlyWhenAskedAndAfreshEachTime() async throws {
        let counting = CountingSource()
        let harness = try HostHarness(desktop: .fake(screen: counting.source))
        var device = try await harness.authorize(try await harness.pair(name: "iPad"))
        await allow("iPad", true, on: harness.host)
        #expect(counting.grabs.withLock { $0 } == [])
        _ = await list(&device, on: harness.host)
        _ = await list(&device, on: harness.host)
        #expect(counting.grabs.withLock { $0 } == ["HDMI-1", "DP-2", "HDMI-1", "DP-2"])
    }

    @Test func allowScreenAppliesToAConnectedDeviceFromItsNextRequest() async throws {
        let harness = try HostHarness(desktop: .fake(screen: CountingSource().source))
        var device = try await harness.authorize(try await harness.pair(name: "iPad"))
        #expect(await list(&device, on: harness.host)?.status == .notAllowed)
        await allow("iPad", true, on: harness.host)
        #expect(await list(&device, on: harness.host)?.displays.count == 2)
        await allow("iPad", false, on: harness.host)
        #expect(await list(&device, on: harness.host) == DisplaysMessage.notAllowed)
    }

    @Test func permissionWithdrawnWhileThePicturesAreTakenSendsNothingOfThem() async throws {
        let started = Mutex(false)
        let released = Mutex(false)
        let slow = ScreenSource(
            monitors: { [ScreenListTests.left] },
            grab: { _ in
                started.withLock { $0 = true }
                while !released.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(1)) }
                return .solid(width: 300, height: 600, blue: 1, green: 2, red: 3)
            })
        let harness = try HostHarness(desktop: .fake(screen: slow))
        var device = try await harness.authorize(try await harness.pair(name: "iPad"))
        await allow("iPad", true, on: harness.host)
        _ = device.inbox()
        await device.send(.listDisplays(.init()), to: harness.host)
        while !started.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(1)) }
        await allow("iPad", false, on: harness.host)
        released.withLock { $0 = true }
        #expect(await collectDisplays(&device) == [DisplaysMessage.notAllowed])
    }

    @Test func aHostWithNoDisplayAnswersNoPermission() async throws {
        let empty = ScreenSource(monitors: { [] }, grab: { _ in throw ScreenSourceError.noSuchMonitor })
        for source in [ScreenSource.noDisplay, empty] {
            let harness = try HostHarness(desktop: .fake(screen: source))
            var device = try await harness.authorize(try await harness.pair(name: "iPad"))
            await allow("iPad", true, on: harness.host)
            let answer = await list(&device, on: harness.host)
            #expect(answer?.displays == [] && answer?.status == .noPermission)
            // The Extend line still says why it is not offered (the fake desktop has no virtual monitors).
            #expect(answer?.extend?.offered == false && answer?.extend?.reason?.isEmpty == false)
        }
    }

    @Test func aMonitorThatCannotBeGrabbedIsListedWithoutAThumbnail() async throws {
        let source = ScreenSource.fake(monitors: [Self.left, Self.right]) { monitor in
            monitor == Self.right ? .solid(width: 640, height: 360, blue: 0, green: 0, red: 0) : nil
        }
        let harness = try HostHarness(desktop: .fake(screen: source))
        var device = try await harness.authorize(try await harness.pair(name: "iPad"))
        await allow("iPad", true, on: harness.host)
        let answer = try #require(await list(&device, on: harness.host))
        #expect(answer.status == .ok)
        #expect(answer.displays.map { $0.thumbnail == nil } == [true, false])
    }
}

/// The pixel size in a JPEG's start-of-frame header, read from a `data:image/jpeg;base64,` URL.
struct JPEGSize: Equatable {
    let width: Int
    let height: Int

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    init?(dataURL: String) {
        let prefix = "data:image/jpeg;base64,"
        guard dataURL.hasPrefix(prefix), let data = Data(base64Encoded: String(dataURL.dropFirst(prefix.count))) else {
            return nil
        }
        let bytes = [UInt8](data)
        guard bytes.starts(with: [0xFF, 0xD8]) else { return nil }
        // Walk the marker segments to the first SOFn (baseline or progressive), which holds height then width.
        var at = 2
        while at + 9 < bytes.count, bytes[at] == 0xFF {
            let marker = bytes[at + 1]
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            if marker == 0xC0 || marker == 0xC2 {
                height = Int(bytes[at + 5]) << 8 | Int(bytes[at + 6])
                width = Int(bytes[at + 7]) << 8 | Int(bytes[at + 8])
                return
            }
            at += 2 + length
        }
        return nil
    }
}
