import DeckCrypto
import DeckDesktop
import DeckKit
import DeckLog
import Foundation
import Testing

@testable import DeckHost

/// A clock the test moves by hand, for the PIN's lifetime.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var instant = ContinuousClock.now

    var now: ContinuousClock.Instant { lock.withLock { instant } }

    func advance(_ duration: Duration) { lock.withLock { instant += duration } }
}

/// The PINs the services asked to show, with the device that asked.
final class PinLog {
    var shown: [(pin: String, device: String)] = []
    /// How many requests each shown PIN answered (the notification says so when more than one).
    var requests: [Int] = []
}

/// Every log record, rendered as `[level] message key=value…` like the daemon's stderr.
final class LogRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var records: [String] = []

    var lines: [String] { lock.withLock { records } }

    var logger: Logger {
        Logger(minimum: .debug) { level, message, metadata in
            let pairs = metadata.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
            self.lock.withLock { self.records.append("[\(level)] \(message)\(pairs)") }
        }
    }
}

/// A wall clock the test sets, for the back-off file.
final class ManualDate: @unchecked Sendable {
    private let lock = NSLock()
    private var date = Date(timeIntervalSince1970: 1_800_000_000)

    var now: Date { lock.withLock { date } }

    func advance(_ seconds: TimeInterval) { lock.withLock { date += seconds } }
}

/// One connection to the daemon's real session code: `SessionMachine<CryptoServices>` over a `DeviceBook`
/// in a temp dir, with the PIN always 246810. It performs actions as the host's actor does (stores paired
/// devices, seals `sendSealed`) and keeps every text it sent, so tests can drive it with DeckCrypto's device side.
final class CryptoSession {
    static let pin = "246810"
    /// The address the session's connection comes from.
    static let peer = "192.0.2.7"
    let dir: TempDir
    let clock = ManualClock()
    let wallClock: ManualDate
    let pins = PinLog()
    let log = LogRecorder()
    let devices: DeviceBook
    let services: CryptoServices
    var session = SessionMachine<CryptoServices>(peer: CryptoSession.peer)
    /// Every text the host sent on this connection, in order.
    private(set) var wire: [String] = []
    /// A fixed time for the flood guard: no test here sends a burst near its limit.
    private let t0 = Date(timeIntervalSince1970: 1_000)

    /// A host over a fresh config dir, or over `dir` (a restart) with the wall clock at `wallClock`.
    init(dir: TempDir = TempDir(), wallClock: ManualDate = ManualDate()) throws {
        self.dir = dir
        self.wallClock = wallClock
        devices = DeviceBook(store: try ConfigStore(directory: dir.url))
        let clock = clock
        let pins = pins
        let backoffFile = PairingBackoffFile(directory: dir.url, wallClock: { wallClock.now }, clock: { clock.now })
        services = CryptoServices(
            hostName: "desk", devices: devices, gate: PairingGate(makePin: { CryptoSession.pin }),
            backoffFile: backoffFile, clock: { clock.now }, log: log.logger,
            pinIssued: { pin, device, requests in
                pins.shown.append((pin, device))
                pins.requests.append(requests)
            })
    }

    /// The same config dir and wall clock in a new process: a new monotonic clock, gate and session.
    func restarted() throws -> CryptoSession { try CryptoSession(dir: dir, wallClock: wallClock) }

    /// Hands a message to the session and performs what it asks; returns the actions.
    @discardableResult
    func send(_ message: DeviceMessage) -> [SessionAction] {
        sendText(String(decoding: message.encode(), as: UTF8.self))
    }

    /// Hands raw text to the session and performs what it asks; returns the actions.
    @discardableResult
    func sendText(_ text: String) -> [SessionAction] {
        perform(session.receive(text: text, now: t0, services: services))
    }

    /// Hands a binary message to the session and performs what it asks; returns the actions and the
    /// messages a device would read.
    func sendBinary() -> (actions: [SessionAction], replies: [HostMessage]) {
        let before = wire.count
        let actions = perform(session.receiveBinary())
        return (actions, wire.dropFirst(before).compactMap { try? HostMessage.decode($0) })
    }

    /// The messages a device would read after sending `message`: plain ones as they are, sealed ones as `secure`.
    func replies(_ message: DeviceMessage) -> [HostMessage] {
        replies(text: String(decoding: message.encode(), as: UTF8.self))
    }

    /// The messages a device would read after sending raw `text`.
    func replies(text: String) -> [HostMessage] {
        let before = wire.count
        sendText(text)
        return wire.dropFirst(before).compactMap { try? HostMessage.decode($0) }
    }

    /// The first message a device would read after sending `message`.
    func reply(_ message: DeviceMessage) -> HostMessage? { replies(message).first }

    private func perform(_ actions: [SessionAction]) -> [SessionAction] {
        for action in actions {
            switch action {
            case .send(let message): wire.append(String(decoding: message.encode(), as: UTF8.self))
            case .sendSealed(let message): if let text = session.seal(message) { wire.append(text) }
            case .paired(let record): try? devices.add(record)
            case .close, .authorized, .request: break
            }
        }
        return actions
    }

    /// Pairs a device with `pin` over this connection.
    func pair(pin: String) throws -> PairResult {
        var device = try DevicePairing(pin: pin, name: "iPad")
        guard case .pairChallenge(let challenge) = reply(.pairStart(device.start)) else {
            return .failed(HostMessage.PairingFailed(reason: .badMessage))
        }
        switch reply(.pairConfirm(try device.receive(challenge))) {
        case .paired(let paired): return .paired(try device.receive(paired))
        case .pairingFailed(let failed): return .failed(failed)
        default: return .failed(HostMessage.PairingFailed(reason: .badMessage))
        }
    }

    /// Authenticates `credentials`; returns the device's channel once the sealed `authorized` opened on it.
    func authorize(_ credentials: DeviceCredentials) throws -> SecureChannel? {
        let device = try DeviceAuth(credentials: credentials)
        guard case .authChallenge(let challenge) = reply(.authStart(device.start)) else { return nil }
        var (finish, channel) = try device.receive(challenge)
        guard case .secure(let first) = reply(.authFinish(finish)),
            try HostMessage.decode(try channel.open(first)) == .authorized(.init(hostName: "desk"))
        else { return nil }
        return channel
    }

    /// Hello, pairing with the right PIN and authentication on this connection.
    func pairAndAuthorize() throws -> (DeviceCredentials, SecureChannel) {
        send(.hello(.init(name: "iPad")))
        let credentials = try pair(pin: Self.pin).get()
        return (credentials, try #require(try authorize(credentials)))
    }

    enum PairResult {
        case paired(DeviceCredentials)
        case failed(HostMessage.PairingFailed)

        func get() throws -> DeviceCredentials {
            guard case .paired(let credentials) = self else { throw DevicePairingError.badMessage }
            return credentials
        }
    }
}
