import DeckDesktop

/// What the routing needs from the sound server (PulseAudio, or PipeWire's pulse server): its sinks, the
/// playing streams and the few commands that move them. Calls block until the server answers, so they run on
/// the sound queue, never on the host's actor or a transport thread.
public protocol SoundServer: AnyObject {
    /// The name of the default sink, nil when there is none.
    func defaultSink() throws -> String?
    /// Every sink.
    func sinks() throws -> [SoundSink]
    /// Every playing stream (sink input).
    func streams() throws -> [SoundStream]
    /// Loads a null sink named `name`; returns its module's index.
    func loadNullSink(name: String, description: String) throws -> UInt32
    /// Makes `name` the default sink.
    func setDefaultSink(_ name: String) throws
    /// Moves a playing stream onto the sink named `sink`.
    func move(stream: UInt32, to sink: String) throws
    /// Unloads a module (our null sink).
    func unloadModule(_ index: UInt32) throws
}

/// A sink as the routing sees it.
public struct SoundSink: Hashable, Sendable {
    public var index: UInt32
    public var name: String
    /// The module that created it (a null sink's `module-null-sink`).
    public var module: UInt32
    public var monitor: String

    public init(index: UInt32, name: String, module: UInt32, monitor: String) {
        self.index = index
        self.name = name
        self.module = module
        self.monitor = monitor
    }
}

/// A playing stream (a sink input).
public struct SoundStream: Hashable, Sendable {
    public var index: UInt32
    /// The index of the sink it plays on.
    public var sink: UInt32

    public init(index: UInt32, sink: UInt32) {
        self.index = index
        self.sink = sink
    }
}
