import DeckActions
import DeckCrypto
import DeckDesktop
import DeckKit
import DeckTransport
import Foundation

@testable import DeckHost

/// Records what the host sends and closes, per connection.
final class RecordingLink: DeviceLink, @unchecked Sendable {
    private let lock = NSLock()
    private var texts: [ConnectionID: [String]] = [:]
    private var closedIds: [ConnectionID] = []
    private var codes: [ConnectionID: UInt16] = [:]
    private var authorizedAfter: [ConnectionID: Int] = [:]

    func send(text: String, to id: ConnectionID) { lock.withLock { texts[id, default: []].append(text) } }

    /// Recorded like any text; counts as written at once unless `hold()` was called.
    func send(text: String, to id: ConnectionID, onSent: (@Sendable () -> Void)?) {
        let now: (@Sendable () -> Void)? = lock.withLock {
            texts[id, default: []].append(text)
            guard holding else { return onSent }
            if let onSent { unsent.append(onSent) }
            return nil
        }
        now?()
    }
    private var binaries: [ConnectionID: [Data]] = [:]
    private var unsent: [@Sendable () -> Void] = []
    private var holding = false

    /// Binary messages are recorded; each counts as written at once unless `hold()` was called.
    func send(binary: Data, to id: ConnectionID, onSent: (@Sendable () -> Void)?) {
        let now: (@Sendable () -> Void)? = lock.withLock {
            binaries[id, default: []].append(binary)
            guard holding else { return onSent }
            if let onSent { unsent.append(onSent) }
            return nil
        }
        now?()
    }

    /// From now on binary messages (and text sent with `onSent`) stay "on the wire" until `release()`.
    func hold() { lock.withLock { holding = true } }

    /// Writes out every held binary message and stops holding.
    func release() {
        let waiting = lock.withLock {
            holding = false
            defer { unsent = [] }
            return unsent
        }
        for onSent in waiting { onSent() }
    }

    func binary(to id: ConnectionID) -> [Data] { lock.withLock { binaries[id] ?? [] } }
    func authorize(_ id: ConnectionID) { lock.withLock { authorizedAfter[id] = texts[id]?.count ?? 0 } }
    /// How many messages had been sent to `id` when the host told the transport it authorized; nil: never.
    func authorizedAfterSending(_ id: ConnectionID) -> Int? { lock.withLock { authorizedAfter[id] } }
    func close(_ id: ConnectionID, code: UInt16) {
        lock.withLock {
            closedIds.append(id)
            codes[id] = code
        }
    }

    func sent(to id: ConnectionID) -> [String] { lock.withLock { texts[id] ?? [] } }
    var closed: [ConnectionID] { lock.withLock { closedIds } }
    func closeCode(_ id: ConnectionID) -> UInt16? { lock.withLock { codes[id] } }
}

/// Collects notifications.
final class NotificationLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [(String, String)] = []
    var notifier: Notifier { Notifier { title, body in self.lock.withLock { self.items.append((title, body)) } } }
    var all: [(String, String)] { lock.withLock { items } }
}

/// A host on a temp config dir with a recording link, plus a device side built from DeckCrypto's device code.
struct HostHarness {
    let dir = TempDir()
    let link = RecordingLink()
    let notifications = NotificationLog()
    let host: DeckServer
    private static let counter = Counter()

    init(actions: ActionRunner = .fake(result: .ok)) throws {
        try self.init(desktop: .fake(actions: actions))
    }

    init(desktop: HostDesktop) throws {
        host = DeckServer(
            link: link, store: try ConfigStore(directory: dir.url), desktop: desktop, notifier: notifications.notifier,
            log: .silent, port: 1, address: "https://test:1/", hostName: "desk")
    }

    func open() async -> ConnectionID {
        let id = ConnectionID(rawValue: Self.counter.next())
        await host.handle(.opened(id, ConnectionInfo(isTLS: false, remoteAddress: "127.0.0.1")))
        return id
    }

    /// Sends a plain message and returns the plain replies it caused.
    @discardableResult
    func send(_ message: DeviceMessage, on id: ConnectionID) async -> [HostMessage] {
        let before = link.sent(to: id).count
        await host.handle(.text(String(decoding: message.encode(), as: UTF8.self), id))
        return link.sent(to: id).dropFirst(before).compactMap { try? HostMessage.decode($0) }
    }

    /// Pairs a new device with a PIN from `control(.pair)` and returns its credentials.
    func pair(name: String) async throws -> DeviceCredentials {
        let id = await open()
        await send(.hello(.init(name: name)), on: id)
        let pin = await host.control(ControlRequest(command: .pair)).pin ?? ""
        var pairing = try DevicePairing(pin: pin, name: name)
        guard case .pairChallenge(let challenge) = await send(.pairStart(pairing.start), on: id).last else {
            throw HarnessError.unexpected
        }
        guard case .paired(let paired) = await send(.pairConfirm(try pairing.receive(challenge)), on: id).last else {
            throw HarnessError.unexpected
        }
        return try pairing.receive(paired)
    }

    /// Authenticates on a new connection; returns the connection and the device's channel.
    func authorize(_ credentials: DeviceCredentials) async throws -> Device {
        let id = await open()
        await send(.hello(.init(name: "x", deviceId: credentials.deviceId)), on: id)
        let auth = try DeviceAuth(credentials: credentials)
        guard case .authChallenge(let challenge) = await send(.authStart(auth.start), on: id).last else {
            throw HarnessError.unexpected
        }
        let (finish, channel) = try auth.receive(challenge)
        var device = Device(id: id, channel: channel, link: link, read: link.sent(to: id).count)
        await send(.authFinish(finish), on: id)
        let first = device.inbox()
        guard case .authorized = first.first else { throw HarnessError.unexpected }
        device.pending = Array(first.dropFirst())  // the first layout is left for the test to read
        return device
    }

    /// One authorized device: seals what it sends, opens what the host sent it.
    struct Device {
        let id: ConnectionID
        var channel: SecureChannel
        let link: RecordingLink
        var read = 0
        var pending: [HostMessage] = []

        /// Host messages not read yet, opened.
        mutating func inbox() -> [HostMessage] {
            let texts = link.sent(to: id).dropFirst(read)
            read += texts.count
            defer { pending = [] }
            return pending
                + texts.compactMap { text in
                    guard case .secure(let envelope) = try? HostMessage.decode(text),
                        let inner = try? channel.open(envelope)
                    else { return try? HostMessage.decode(text) }
                    return try? HostMessage.decode(inner)
                }
        }

        mutating func send(_ message: DeviceMessage, to host: DeckServer) async {
            let envelope = channel.seal(message)
            await host.handle(.text(String(decoding: DeviceMessage.secure(envelope).encode(), as: UTF8.self), id))
        }
    }

    enum HarnessError: Error { case unexpected }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value: UInt64 = 0
        func next() -> UInt64 {
            lock.withLock {
                value += 1
                return value
            }
        }
    }
}
