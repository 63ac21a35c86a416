import CAvahi
import DeckLog
import Foundation

/// Publishes `_touchdeck._tcp` on the port through the system's Avahi daemon.
///
/// Owns one threaded poll and one client; Avahi calls happen on its poll thread (callbacks) or under
/// its lock (`stop`). `@unchecked Sendable`: mutable fields are touched only inside callbacks, which Avahi
/// runs on its one thread, or while holding the poll lock.
public final class MDNSAdvertiser: @unchecked Sendable {
    /// The service type the seeds chose.
    public static let serviceType = "_touchdeck._tcp"

    private let port: UInt16
    private let log: Logger
    private var name: String
    private var poll: OpaquePointer?
    private var client: OpaquePointer?
    private var group: OpaquePointer?
    private var warned = false

    /// An advertiser for `name` (the computer's name) on `port`; nothing happens until `start`.
    public init(name: String, port: UInt16, log: Logger) {
        self.name = name
        self.port = port
        self.log = log
    }

    deinit { stop() }

    /// Connects to Avahi and publishes. Without a running Avahi it warns once and returns false.
    @discardableResult
    public func start() -> Bool {
        guard let poll = avahi_threaded_poll_new() else { return warnOnce("could not create its event loop") }
        self.poll = poll
        var error: Int32 = 0
        // Unretained: self owns the poll and stops it (so no callback runs) before it goes away.
        let context = Unmanaged.passUnretained(self).toOpaque()
        client = avahi_client_new(avahi_threaded_poll_get(poll), AvahiClientFlags(0), clientCallback, context, &error)
        guard client != nil else {
            avahi_threaded_poll_free(poll)
            self.poll = nil
            return warnOnce(String(cString: avahi_strerror(error)))
        }
        avahi_threaded_poll_start(poll)
        return true
    }

    /// Withdraws the service and frees the client.
    public func stop() {
        guard let poll else { return }
        avahi_threaded_poll_stop(poll)
        if let client { avahi_client_free(client) }  // also frees the group
        avahi_threaded_poll_free(poll)
        self.poll = nil
        client = nil
        group = nil
    }

    @discardableResult
    private func warnOnce(_ reason: String) -> Bool {
        if !warned {
            warned = true
            log.warning(
                "mDNS unavailable (\(reason)); devices must be given the address by hand",
                ["mdns.fix": "install and start avahi-daemon"])
        }
        return false
    }

    fileprivate func clientChanged(_ client: OpaquePointer?, _ state: AvahiClientState) {
        switch state {
        case AVAHI_CLIENT_S_RUNNING: publish(client)
        case AVAHI_CLIENT_S_COLLISION, AVAHI_CLIENT_S_REGISTERING: if let group { avahi_entry_group_reset(group) }
        case AVAHI_CLIENT_FAILURE: warnOnce(String(cString: avahi_strerror(avahi_client_errno(client))))
        default: break
        }
    }

    private func publish(_ client: OpaquePointer?) {
        if group == nil {
            let context = Unmanaged.passUnretained(self).toOpaque()
            group = avahi_entry_group_new(client, groupCallback, context)
        }
        guard let group else {
            warnOnce("could not create an entry group")
            return
        }
        guard avahi_entry_group_is_empty(group) != 0 else { return }
        let result = avahi_entry_group_add_service_strlst(
            group, AvahiIfIndex(AVAHI_IF_UNSPEC), AvahiProtocol(AVAHI_PROTO_UNSPEC), AvahiPublishFlags(0), name,
            Self.serviceType, nil, nil,
            port, nil)
        if result == AVAHI_ERR_COLLISION { return rename(client) }
        guard result >= 0, avahi_entry_group_commit(group) >= 0 else {
            warnOnce(String(cString: avahi_strerror(result)))
            return
        }
        log.info("advertising over mDNS", ["mdns.name": name, "mdns.type": Self.serviceType])
    }

    /// Another host took the name: take Avahi's next alternative ("name #2") and publish again.
    fileprivate func rename(_ client: OpaquePointer?) {
        if let alternative = avahi_alternative_service_name(name) {
            name = String(cString: alternative)
            avahi_free(alternative)
        }
        if let group { avahi_entry_group_reset(group) }
        publish(client)
    }

    fileprivate func groupChanged(_ group: OpaquePointer?, _ state: AvahiEntryGroupState) {
        switch state {
        case AVAHI_ENTRY_GROUP_COLLISION: rename(avahi_entry_group_get_client(group))
        case AVAHI_ENTRY_GROUP_FAILURE:
            warnOnce(String(cString: avahi_strerror(avahi_client_errno(avahi_entry_group_get_client(group)))))
        default: break
        }
    }
}

private func clientCallback(_ client: OpaquePointer?, _ state: AvahiClientState, _ context: UnsafeMutableRawPointer?) {
    guard let context else { return }
    Unmanaged<MDNSAdvertiser>.fromOpaque(context).takeUnretainedValue().clientChanged(client, state)
}

private func groupCallback(_ group: OpaquePointer?, _ state: AvahiEntryGroupState, _ context: UnsafeMutableRawPointer?)
{
    guard let context else { return }
    Unmanaged<MDNSAdvertiser>.fromOpaque(context).takeUnretainedValue().groupChanged(group, state)
}
