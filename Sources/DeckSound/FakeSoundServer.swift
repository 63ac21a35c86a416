import DeckDesktop

/// An in-memory sound server for tests of the routing: sinks with a volume and mute the tests check are
/// never touched, streams that play on a sink, modules, and a log of every command in order. A command named
/// in `failing` throws (`refused`) instead, to play a server that dies half-way.
public final class FakeSoundServer: SoundServer, @unchecked Sendable {
    public struct Sink: Hashable, Sendable {
        public var sink: SoundSink
        public var volume: Double
        public var muted: Bool
    }

    public private(set) var sinkList: [Sink] = []
    public private(set) var streamList: [SoundStream] = []
    public private(set) var defaultName: String?
    /// Every command, in order: "load NAME", "default NAME", "move 7 NAME", "unload 3".
    public private(set) var commands: [String] = []
    /// Commands (first word: load, default, move, unload) that fail from now on.
    public var failing: Set<String> = []
    /// Streams whose app quits after they were listed and before they are moved: the move finds no stream.
    public var quitsBeforeMoving: Set<UInt32> = []
    private var nextIndex: UInt32 = 100

    /// A server whose sinks are `speakers` (the first is the default), each at 50 % unless `muted`.
    public init(speakers: [String], muted: Set<String> = []) {
        for name in speakers { addSink(name, muted: muted.contains(name)) }
        defaultName = speakers.first
    }

    /// A new stream playing on `sink`; returns its index.
    @discardableResult public func play(on sink: String) -> UInt32 {
        let index = take()
        streamList.append(SoundStream(index: index, sink: sinkList.first { $0.sink.name == sink }!.sink.index))
        return index
    }

    /// The name of the sink `stream` plays on.
    public func sinkOf(_ stream: UInt32) -> String? {
        guard let on = streamList.first(where: { $0.index == stream }) else { return nil }
        return sinkList.first { $0.sink.index == on.sink }?.sink.name
    }

    /// The user (or the session manager) picks another default, without our help.
    public func userPicksDefault(_ name: String) { defaultName = name }

    /// Plugs in another sink.
    public func plug(_ name: String) { addSink(name, muted: false) }

    public func defaultSink() throws -> String? { defaultName }
    public func sinks() throws -> [SoundSink] { sinkList.map(\.sink) }
    public func streams() throws -> [SoundStream] { streamList }

    public func loadNullSink(name: String, description: String) throws -> UInt32 {
        try command("load", name)
        return addSink(name, muted: false)
    }

    public func setDefaultSink(_ name: String) throws {
        try command("default", name)
        guard sinkList.contains(where: { $0.sink.name == name }) else { throw SoundError.refused("no sink \(name)") }
        defaultName = name
    }

    public func move(stream: UInt32, to sink: String) throws {
        try command("move", "\(stream) \(sink)")
        if quitsBeforeMoving.remove(stream) != nil {
            streamList.removeAll { $0.index == stream }
            throw SoundError.refused("move stream \(stream) to \(sink): No such entity")
        }
        guard let target = sinkList.first(where: { $0.sink.name == sink }),
            let at = streamList.firstIndex(where: { $0.index == stream })
        else { throw SoundError.refused("no such stream or sink") }
        streamList[at].sink = target.sink.index
    }

    public func unloadModule(_ index: UInt32) throws {
        try command("unload", "\(index)")
        guard let gone = sinkList.first(where: { $0.sink.module == index }) else {
            throw SoundError.refused("no module \(index)")
        }
        sinkList.removeAll { $0.sink.module == index }
        // Like PulseAudio: the streams of an unloaded sink fall back to the default (or any) sink.
        let rescue = sinkList.first { $0.sink.name == defaultName } ?? sinkList.first
        for at in streamList.indices where streamList[at].sink == gone.sink.index {
            streamList[at].sink = rescue?.sink.index ?? UInt32.max
        }
        if defaultName == gone.sink.name { defaultName = rescue?.sink.name }
    }

    private func command(_ verb: String, _ argument: String) throws {
        guard !failing.contains(verb) else { throw SoundError.refused("\(verb) \(argument) (made to fail)") }
        commands.append("\(verb) \(argument)")
    }

    @discardableResult private func addSink(_ name: String, muted: Bool) -> UInt32 {
        let index = take()
        let module = take()
        sinkList.append(
            Sink(
                sink: SoundSink(index: index, name: name, module: module, monitor: name + ".monitor"), volume: 0.5,
                muted: muted))
        return module
    }

    private func take() -> UInt32 {
        defer { nextIndex += 1 }
        return nextIndex
    }
}
