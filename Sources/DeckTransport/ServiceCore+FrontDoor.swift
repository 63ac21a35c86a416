import CLibWebSockets
import Foundation

/// The front door on the service thread: the waiting room, the authorization deadline and the Origin check.
/// Everything here runs before the handler hears of a connection or instead of it, so a stranger's sockets
/// cost the host's actor nothing.
extension ServiceCore {
    /// Lets a new connection wait, closing whoever must make room for it (`WaitingRoom`). A connection that
    /// names a paired device in its upgrade (`/ws?device=ID`) waits in that device's reserved place.
    /// Always true: nobody is refused at the door any more (the Bool is kept for the caller's `guard`).
    func admit(_ connection: Connection, address: String) -> Bool {
        guard var room else { return true }
        let device = claimedInUpgrade(connection.wsi)
        evict(room.admit(connection.id, address: address, device: device, now: .now))
        self.room = room
        lws_set_timer_usecs(connection.wsi, Self.microseconds(room.limits.authorizeWithin))
        return true
    }

    /// A whole text message of a waiting stranger: when it is a `hello` or `authStart` naming a paired device,
    /// the connection moves to that device's reserved place, no longer charged to its address's budget.
    func inspectWhileWaiting(_ connection: Connection, message: Data) {
        guard var room, room.isStranger(connection.id), let device = DeviceClaim.named(in: message),
            configuration.knownDevices.contains(device)
        else { return }
        let evictions = room.claim(connection.id, device: device)
        self.room = room
        evict(evictions)
        resume(connection)
    }

    private func evict(_ evictions: [WaitingRoom.Eviction]) {
        for eviction in evictions {
            guard let evicted = connections[eviction.id] else { continue }
            requestClose(evicted, code: FrontDoorClose.tryAgainLater, reason: FrontDoorClose.reason(eviction.reason))
        }
    }

    /// The known device named by the upgrade's `device` query argument, if any.
    private func claimedInUpgrade(_ wsi: OpaquePointer) -> String? {
        var buffer = [CChar](repeating: 0, count: 160)
        guard let value = lws_get_urlarg_by_name(wsi, "device=", &buffer, Int32(buffer.count)) else { return nil }
        let device = String(cString: value)
        return configuration.knownDevices.contains(device) ? device : nil
    }

    /// The owner says the connection authorized: no deadline, no place in the room, no byte budget, the full
    /// message size.
    func authorized(_ connection: Connection) {
        room?.leave(connection.id)
        connection.assembler.limit = configuration.maxMessageSize
        lws_set_timer_usecs(connection.wsi, LWS_SET_TIMER_USEC_CANCEL)
        resume(connection)
    }

    /// Charges what a waiting connection sent to its address; when the address has spent its budget, lws
    /// stops reading the connection until the budget has refilled (the timer resumes it).
    func charge(_ connection: Connection, bytes: Int) {
        // Only strangers: a known device's connection cannot be slowed by strangers sharing its address.
        guard var budget, room?.isStranger(connection.id) == true else { return }
        let now = ContinuousClock.now
        let pause = budget.charge(bytes, from: connection.address, now: now)
        self.budget = budget
        guard let pause else { return }
        connection.pausedUntil = now + pause
        lws_rx_flow_control(connection.wsi, 0)
        armTimer(connection, now: now)
    }

    /// The per-connection timer fired: close whoever ran out of time, resume reading a paused connection.
    func timerFired(_ wsi: OpaquePointer) {
        guard var room, let connection = connectionsByWSI[wsi] else { return }
        let now = ContinuousClock.now
        for id in room.expire(now: now) {
            if let late = connections[id] {
                requestClose(late, code: FrontDoorClose.policyViolation, reason: FrontDoorClose.tooSlow)
            }
        }
        self.room = room
        if let until = connection.pausedUntil, until <= now { resume(connection) }
        armTimer(connection, now: now)
    }

    /// One lws timer per connection serves both its deadline and the end of its pause: set for the earlier.
    /// lws keeps time on its own clock, so a timer that fires a little early by ours is simply set again.
    private func armTimer(_ connection: Connection, now: ContinuousClock.Instant) {
        let next = [room?.deadline(of: connection.id), connection.pausedUntil].compactMap { $0 }.min()
        guard let next else { return }
        lws_set_timer_usecs(connection.wsi, Self.microseconds(next - now) + 1000)
    }

    /// Reads the connection again (its pause is over, it authorized, or it is closing and must read the
    /// peer's close).
    func resume(_ connection: Connection) {
        guard connection.pausedUntil != nil else { return }
        connection.pausedUntil = nil
        lws_rx_flow_control(connection.wsi, 1)
    }

    /// The connection is gone: its place in the room is free.
    func leftFrontDoor(_ id: ConnectionID) {
        room?.leave(id)
    }

    /// Whether the upgrade's `Origin` header (if any) is one of the host's own origins.
    func originAllowed(_ wsi: OpaquePointer) -> Bool {
        let length = Int(lws_hdr_total_length(wsi, WSI_TOKEN_ORIGIN))
        guard length > 0 else { return origins.allows(nil, port: 0) }
        var buffer = [CChar](repeating: 0, count: length + 1)
        guard lws_hdr_copy(wsi, &buffer, Int32(buffer.count), WSI_TOKEN_ORIGIN) == length else { return false }
        let port = Int(lws_get_vhost_listen_port(lws_get_vhost(wsi)))
        return origins.allows(String(cBuffer: buffer), port: port)
    }

    static func microseconds(_ duration: Duration) -> lws_usec_t {
        let (seconds, attoseconds) = duration.components
        return lws_usec_t(max(0, seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
    }
}

extension OriginPolicy {
    /// The policy for the server certificate in `file`: its subjectAltNames are the host's https origins.
    /// A certificate that cannot be read certifies nothing (only loopback http pages then pass).
    init(certificate file: URL, servesAppOnLoopbackHTTP: Bool) {
        let certificate = (try? Data(contentsOf: file)).flatMap { try? Certificate(pem: $0) }
        self.init(
            certifies: { host in
                guard let certificate else { return false }
                return Origin.isNumeric(host) ? certificate.covers(ipAddress: host) : certificate.covers(dnsName: host)
            },
            servesAppOnLoopbackHTTP: servesAppOnLoopbackHTTP)
    }
}
