/// Where a capture instant falls in the file (DESIGN.md#state-machines: a value, the clock passed in).
///
/// The file's clock starts at `start` and stands still while paused: resuming shifts every later instant back
/// by the time spent paused, so the file has no gap. Instants are microseconds on the capture clock.
public struct RecordingTimeline: Sendable, Equatable {
    public let start: UInt64
    /// Microseconds spent paused before the current stretch.
    public private(set) var pausedTotal: UInt64 = 0
    /// When the current pause began; nil while recording.
    public private(set) var pausedAt: UInt64?
    /// The start of the current stretch: anything captured earlier belongs to a pause or to before the start.
    public private(set) var stretchStart: UInt64

    public init(start: UInt64) {
        self.start = start
        stretchStart = start
    }

    public var isPaused: Bool { pausedAt != nil }

    /// Pauses at `now`; false if already paused.
    public mutating func pause(at now: UInt64) -> Bool {
        guard pausedAt == nil else { return false }
        pausedAt = max(now, start)
        return true
    }

    /// Resumes at `now`; false if not paused.
    public mutating func resume(at now: UInt64) -> Bool {
        guard let pausedAt else { return false }
        pausedTotal += now > pausedAt ? now - pausedAt : 0
        self.pausedAt = nil
        stretchStart = max(now, pausedAt)
        return true
    }

    /// The file time of something captured at `instant`, or nil when it falls before the start or in a pause.
    public func fileTime(of instant: UInt64) -> UInt64? {
        guard pausedAt == nil, instant >= stretchStart else { return nil }
        return instant - start - pausedTotal
    }

    /// How long the file is at `now`: the time recorded, pauses left out.
    public func elapsed(at now: UInt64) -> UInt64 {
        let end = pausedAt ?? now
        return end > start + pausedTotal ? end - start - pausedTotal : 0
    }
}
