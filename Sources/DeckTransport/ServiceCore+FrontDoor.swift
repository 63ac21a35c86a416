import CLibWebSockets
import Foundation

/// The front door on the service thread: the waiting room, the authorization deadline and the Origin check.
/// Everything here runs before the handler hears of a connection or instead of it, so a stranger's sockets
/// cost the host's actor nothing.
extension ServiceCore {
    /// Lets a new connection wait (closing the oldest waiting one if the room is full) or refuses it.
    /// False when refused: the connection is closing and its owner never hears of it.
    func admit(_ connection: Connection, address: String) -> Bool {
        guard var room else { return true }
        defer { self.room = room }
        switch room.admit(connection.id, address: address, now: .now) {
        case .refuse:
            requestClose(connection, code: FrontDoorClose.tryAgainLater, reason: FrontDoorClose.tooManyFromAddress)
            return false
        case .admitEvicting(let oldest):
            if let evicted = connections[oldest] {
                requestClose(evicted, code: FrontDoorClose.tryAgainLater, reason: FrontDoorClose.madeRoom)
            }
        case .admit:
            break
        }
        lws_set_timer_usecs(connection.wsi, Self.microseconds(room.limits.authorizeWithin))
        return true
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
        guard var budget, room?.isWaiting(connection.id) == true else { return }
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
