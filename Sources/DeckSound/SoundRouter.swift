import DeckDesktop

/// Routes the computer's sound away from its speakers while a device listens (DESIGN.md#sound), the way Sunshine
/// does: our own null sink becomes the default, the playing streams move onto it and its monitor is what we
/// capture. Muting the speakers would not do: on Linux the monitor of a muted sink is silent too.
///
/// Every change is written to the `RoutingRecord` before it is made, and undone in the reverse order
/// (streams back, the previous default back, our sink unloaded); a routing a crash left behind is undone by
/// the next `route` or `recover`. The speakers' own volume and mute are never touched.
///
/// Not thread-safe: one serial queue (`SoundCapture`'s) owns it, which is what keeps routing and restoring
/// strictly in order.
public final class SoundRouter {
    /// Our null sink's name (its description, what a mixer shows, is "TouchDeck").
    public static let sinkName = "touchdeck_sound"

    private let server: any SoundServer
    private let store: RoutingRecordStore
    private let speakersChanged: (String?) -> Void
    /// The routing in force, nil when sound plays on the speakers.
    public private(set) var record: RoutingRecord?

    /// `speakersChanged` hears the sink that plays the computer's sound when nobody listens (the volume
    /// gauge follows it), and nil once our sink is gone.
    public init(
        server: any SoundServer, store: RoutingRecordStore, speakersChanged: @escaping (String?) -> Void = { _ in }
    ) {
        self.server = server
        self.store = store
        self.speakersChanged = speakersChanged
    }

    /// Loads our sink, makes it the default and moves every playing stream onto it; returns the monitor
    /// source to record. A routing already in force is kept (its monitor is returned).
    public func route() throws -> String {
        if record == nil { try recover() }
        if record == nil {
            guard let previous = try server.defaultSink(), previous != Self.sinkName else {
                throw SoundError.noDefaultSink
            }
            var fresh = RoutingRecord(previousDefault: previous)
            try store.save(fresh)  // written before anything changes
            speakersChanged(previous)
            do {
                fresh.module = try server.loadNullSink(name: Self.sinkName, description: "TouchDeck")
                try store.save(fresh)
            } catch {
                try? undo(fresh)
                throw error
            }
            record = fresh
        }
        do {
            try server.setDefaultSink(Self.sinkName)
            try moveStreamsOnto()
            guard let ours = try server.sinks().first(where: { $0.name == Self.sinkName }) else {
                throw SoundError.refused("our sink \(Self.sinkName) vanished")
            }
            return ours.monitor
        } catch {
            try? restore()
            throw error
        }
    }

    /// While routed: another default (the user picked other speakers, or new ones were plugged in) becomes
    /// the sink to restore to, and ours the default again; streams that appeared elsewhere move onto ours.
    public func follow() throws {
        guard var current = record else { return }
        if let chosen = try server.defaultSink(), chosen != Self.sinkName {
            for (stream, origin) in current.origins where origin == current.previousDefault {
                current.origins[stream] = chosen
            }
            current.previousDefault = chosen
            try store.save(current)
            record = current
            speakersChanged(chosen)
            try server.setDefaultSink(Self.sinkName)
        }
        try moveStreamsOnto()
    }

    /// Moves the streams back, restores the previous default and unloads our sink. Idempotent.
    public func restore() throws {
        guard let current = record ?? store.load() else { return }
        try undo(current)
    }

    /// Undoes a routing left behind by a crash (the record on disk, or merely our sink still loaded).
    public func recover() throws {
        let leftover = store.load()
        let sinks = try server.sinks()
        guard sinks.contains(where: { $0.name == Self.sinkName }) || leftover != nil else { return }
        try undo(leftover ?? RoutingRecord(previousDefault: ""), sinks: sinks)
    }

    private func moveStreamsOnto() throws {
        guard var current = record else { return }
        let sinks = try server.sinks()
        guard let ours = sinks.first(where: { $0.name == Self.sinkName }) else { return }
        let elsewhere = try server.streams().filter { $0.sink != ours.index }
        guard !elsewhere.isEmpty else { return }
        for stream in elsewhere {
            current.origins[stream.index] = sinks.first { $0.index == stream.sink }?.name ?? current.previousDefault
        }
        try store.save(current)  // where they were, before they move
        record = current
        for stream in elsewhere {
            // A stream that refuses to move (PA_STREAM_DONT_MOVE) keeps playing where it is.
            try? server.move(stream: stream.index, to: Self.sinkName)
        }
    }

    private func undo(_ routing: RoutingRecord, sinks known: [SoundSink]? = nil) throws {
        let sinks = try known ?? server.sinks()
        if let ours = sinks.first(where: { $0.name == Self.sinkName }) {
            let others = Set(sinks.map(\.name)).subtracting([Self.sinkName])
            let fallback = others.contains(routing.previousDefault) ? routing.previousDefault : others.sorted().first
            for stream in try server.streams() where stream.sink == ours.index {
                let origin = routing.origins[stream.index].flatMap { others.contains($0) ? $0 : nil }
                // A stream whose app quit since the listing is gone (No such entity), and one that will not
                // move falls onto the default when our sink is unloaded: neither stops the rest of the undo.
                if let target = origin ?? fallback { try? server.move(stream: stream.index, to: target) }
            }
            if let fallback, try server.defaultSink() == Self.sinkName { try server.setDefaultSink(fallback) }
            try server.unloadModule(ours.module)
        }
        store.remove()
        record = nil
        speakersChanged(nil)
    }
}
