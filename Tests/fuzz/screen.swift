import Foundation

// One input is a viewing session: lines split at "\n". A line that decodes as a device message is that message
// (and must encode and decode back to itself); any other line is a raw touch: [kind][clock step][x][y][dx][dy]
// (x…dy are 8-byte Double bit patterns, missing bytes 0). The input's last bytes, read backwards, pick the
// monitor's rectangle, the access flags and the clock steps of decoded messages.
//
// The messages go through the rules they feed on the host: startScreen → ScreenAccess.decide, ScreenGeometry.fit,
// StreamRate.normalize and .bitrate; screenOptions → StreamRate; pointer → PointerDriver (DeckActions, over
// DeckKit's PointerPlan) with a monotonic clock, its wake-ups honoured; stopScreen and the end → releaseAll.
// Properties: no trap; every move lands on a pixel of the monitor; a button is never pressed twice nor released
// while up; a right click comes up in the same output; after releaseAll nothing is held; wheel steps 1…40;
// a fitted video is even, 2 or more, never bigger than the monitor nor (by more than rounding) the request;
// 30 or 60 fps and a bitrate inside the budget; a refusal comes with a denial and a start without one; the
// viewer-side clamps (clampOffset, normalized) keep their ranges for finite inputs.

private struct Tail {
    var bytes: [UInt8]
    var at: Int
    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        at = bytes.count
    }
    mutating func byte() -> UInt8 {
        guard at > 0 else { return 0 }
        at -= 1
        return bytes[at]
    }
    mutating func u16() -> UInt16 { UInt16(byte()) << 8 | UInt16(byte()) }
}

private func double(_ bytes: ArraySlice<UInt8>, _ index: Int) -> Double {
    let start = bytes.startIndex + 2 + index * 8
    var bits: UInt64 = 0
    for i in 0..<8 where start + i < bytes.endIndex { bits |= UInt64(bytes[start + i]) << (8 * UInt64(i)) }
    return Double(bitPattern: bits)
}

/// Seconds the clock moves before an event: around the double-click and move-rate thresholds.
private let steps: [TimeInterval] = [
    0, 0.001, 1.0 / 60 - 1e-9, 1.0 / 60, 1.0 / 60 + 1e-9, 0.05, 0.2, 0.4999, 0.5, 0.5001, 0.7, 2, 60, 1e-12, 0.01,
    0.3,
]

private struct Session {
    let monitor: Rect
    var driver: PointerDriver
    var now: TimeInterval = 1000
    var wakeAt: TimeInterval?
    var leftDown = false
    var rightDown = false

    init(monitor: Rect) {
        self.monitor = monitor
        driver = PointerDriver(monitor: monitor)
    }

    mutating func check(_ actions: [InputAction]) {
        for action in actions {
            switch action {
            case .move(let pixel):
                precondition(pixel.monitor == monitor, "a move names another monitor")
                precondition(
                    pixel.x >= 0 && Double(pixel.x) < monitor.width && pixel.y >= 0 && Double(pixel.y) < monitor.height,
                    "a move left the monitor")
                precondition(
                    Double(pixel.desktopX) == monitor.minX + Double(pixel.x)
                        && Double(pixel.desktopY) == monitor.minY + Double(pixel.y), "desktop pixel is off")
            case .button(.left, let pressed):
                precondition(pressed != leftDown, pressed ? "left pressed twice" : "left released while up")
                leftDown = pressed
            case .button(.right, let pressed):
                precondition(pressed != rightDown, pressed ? "right pressed twice" : "right released while up")
                rightDown = pressed
            case .button(.middle, _):
                preconditionFailure("the pointer never uses the middle button")
            case .scroll(_, let steps):
                precondition((1...40).contains(steps), "wheel steps out of 1…40")
            case .keysym:
                preconditionFailure("the pointer never taps a key")
            }
        }
        precondition(!rightDown, "a right click left the button down")
        precondition(leftDown == driver.isHolding, "the driver's held state and the actions disagree")
    }

    /// Moves the clock on, first running a wake-up that came due on the way (as the host's timer does).
    mutating func advance(_ step: TimeInterval) {
        let next = now + step
        if let due = wakeAt, due <= next {
            now = max(now, due)
            wakeAt = nil
            take(driver.wake(now: now))
        }
        now = next
    }

    mutating func take(_ output: PointerDriver.Output) {
        check(output.actions)
        if let due = output.wakeAt {
            precondition(due > now, "a wake-up in the past")
            wakeAt = due
        } else {
            wakeAt = nil
        }
    }

    mutating func touch(_ event: DeviceMessage.Pointer) {
        precondition((0...1).contains(event.x) && (0...1).contains(event.y), "a pointer outside 0…1")
        precondition(event.dx.isFinite && event.dy.isFinite, "a scroll amount that is not finite")
        take(driver.receive(event, now: now))
    }

    mutating func releaseAll() {
        check(driver.releaseAll())
        precondition(!leftDown && !driver.isHolding, "releaseAll left the button down")
        wakeAt = nil
        take(driver.wake(now: now + 1))
        precondition(wakeAt == nil, "a move survived releaseAll")
    }
}

private func checkFit(monitor: Rect, maxSide: Int) {
    let width = Int(monitor.width)
    let height = Int(monitor.height)
    let size = ScreenGeometry.fit(width: width, height: height, maxSide: maxSide)
    let target = min(max(maxSide, ScreenGeometry.minSide), ScreenGeometry.maxSide)
    precondition(size.width % 2 == 0 && size.height % 2 == 0, "an odd video side")
    precondition(size.width >= 2 && size.height >= 2, "a video side under 2")
    precondition(size.width <= max(2, width) && size.height <= max(2, height), "the video is bigger than the monitor")
    precondition(max(size.width, size.height) <= target + 1, "the video is bigger than asked")
    let rate = StreamRate.bitrate(width: size.width, height: size.height, fps: StreamRate.normalize(fps: maxSide))
    precondition((0...StreamRate.maxBitrate).contains(rate), "a bitrate outside the budget")
}

private func checkRate(_ fps: Int) {
    let normal = StreamRate.normalize(fps: fps)
    precondition(normal == StreamRate.low || normal == StreamRate.high, "a rate other than 30 or 60")
    precondition((fps >= StreamRate.highFrom) == (normal == StreamRate.high), "the wrong one of 30 and 60")
}

private func checkAccess(_ flags: UInt8, requester: String) -> Bool {
    let viewer: ScreenAccess.Viewer? =
        flags & 8 == 0 ? nil : ScreenAccess.Viewer(deviceId: flags & 16 == 0 ? requester : "other", name: "Other")
    let decision = ScreenAccess.decide(
        allowed: flags & 1 != 0, permission: flags & 2 != 0, locked: flags & 4 != 0, viewer: viewer,
        requester: requester)
    if flags & 1 == 0 { precondition(decision == .notAllowed, "a device that may not view learned more") }
    precondition(decision.permitsViewing == (decision.denial == nil), "a refusal without a denial")
    if let denial = decision.denial {
        let message = HostMessage.screenDenied(denial)
        precondition((try? HostMessage.decode(message.encode())) == message, "screenDenied does not round trip")
        precondition(denial.viewer == nil || denial.reason == .busy, "a viewer named outside busy")
    }
    return decision.permitsViewing
}

/// The viewer's own clamps, for finite inputs of a sane size.
private func checkViewer(_ a: Double, _ b: Double, _ c: Double, _ d: Double, view: Size) {
    guard [a, b, c, d].allSatisfy({ $0.isFinite && abs($0) < 1e6 }) else { return }
    let zoom = 1 + abs(a).truncatingRemainder(dividingBy: 7)
    let clamped = ScreenGeometry.clampOffset(Size(width: b, height: c), zoom: zoom, view: view, covered: abs(d))
    let growth = (zoom - 1) / 2
    precondition(abs(clamped.width) <= view.width * growth, "the pan passed the video's edge sideways")
    precondition(
        clamped.height <= view.height * growth && clamped.height >= -view.height * growth - abs(d),
        "the pan passed the video's edge vertically")
    let video = Size(
        width: 1 + abs(c).truncatingRemainder(dividingBy: 4000),
        height: 1 + abs(d).truncatingRemainder(dividingBy: 4000))
    if let point = ScreenGeometry.normalized(
        touch: Point(x: b, y: c), view: view, video: video, zoom: zoom, offset: clamped)
    {
        precondition(
            point.x >= -1e-9 && point.x <= 1 + 1e-9 && point.y >= -1e-9 && point.y <= 1 + 1e-9,
            "a touch outside the video")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let all = Array(UnsafeBufferPointer(start: bytes, count: count))
    var tail = Tail(all)
    let monitor = Rect(
        x: Double(Int16(bitPattern: tail.u16())), y: Double(Int16(bitPattern: tail.u16())),
        width: Double(1 + tail.u16() % 8192), height: Double(1 + tail.u16() % 8192))
    let view = Size(width: Double(1 + tail.u16() % 3000), height: Double(1 + tail.u16() % 3000))
    var session = Session(monitor: monitor)
    var viewing = false

    for line in all.split(separator: 10, omittingEmptySubsequences: true) {
        // The transport hands the host a String: invalid UTF-8 arrives as U+FFFD.
        let text = Data(String(decoding: line, as: UTF8.self).utf8)
        if let message = try? DeviceMessage.decode(text) {
            precondition((try? DeviceMessage.decode(message.encode())) == message, "round trip changed the message")
            session.advance(steps[Int(tail.byte() % 16)])
            switch message {
            case .listDisplays, .requestKeyframe: break
            case .startScreen(let start):
                if viewing { session.releaseAll() }
                checkFit(monitor: monitor, maxSide: start.maxSide)
                checkRate(start.fps)
                viewing = checkAccess(tail.byte(), requester: "me")
                if viewing { session = Session(monitor: monitor) }
            case .screenOptions(let options):
                checkRate(options.fps)
            case .pointer(let event):
                session.touch(event)
            case .stopScreen:
                session.releaseAll()
                viewing = false
            default: break
            }
        } else {
            guard let first = line.first else { continue }
            session.advance(steps[Int(first >> 4)])
            let kinds = DeviceMessage.Pointer.Kind.allCases
            let kind = kinds[Int(line.dropFirst().first ?? 0) % kinds.count]
            let (x, y, dx, dy) = (double(line, 0), double(line, 1), double(line, 2), double(line, 3))
            session.touch(DeviceMessage.Pointer(kind: kind, x: x, y: y, dx: dx, dy: dy))
            checkViewer(x, y, dx, dy, view: view)
            let mode = TwoFinger.decide(TwoFinger.allCases[Int(first & 3)], spread: x, moved: y, zoom: dx, covered: dy)
            if first & 3 != 0 { precondition(mode == TwoFinger.allCases[Int(first & 3)], "a gesture changed its mind") }
        }
    }
    session.releaseAll()
    return 0
}
