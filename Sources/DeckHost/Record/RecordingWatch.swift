/// What the once-a-second look at a running recording decides (the file's length and the devices connected
/// are passed in): stop at the length limit, and tell the computer's user when a recording runs on for ten
/// minutes with no device connected (the speakers are silent meanwhile, and the disk fills).
struct RecordingWatch: Equatable {
    /// The file's length at which it stops (`recordStart.maxSeconds`).
    let limitMicros: UInt64
    /// How long a recording may run with nobody connected before the user is told.
    static let unattendedMicros: UInt64 = 600_000_000
    /// Told for the current stretch without devices (told again if devices come and go again).
    private(set) var toldUnattended = false

    enum Step: Equatable {
        case none
        case stop
        case tellUnattended(minutes: Int)
    }

    init(limitSeconds: Int) { limitMicros = UInt64(max(1, limitSeconds)) * 1_000_000 }

    mutating func look(elapsedMicros: UInt64, devicesConnected: Int) -> Step {
        if elapsedMicros >= limitMicros { return .stop }
        guard devicesConnected == 0 else {
            toldUnattended = false
            return .none
        }
        guard !toldUnattended, elapsedMicros >= Self.unattendedMicros else { return .none }
        toldUnattended = true
        return .tellUnattended(minutes: Int(elapsedMicros / 60_000_000))
    }

    /// How long to wait before the next look: a second, or less when the limit comes sooner.
    func wait(elapsedMicros: UInt64) -> Duration {
        let left = limitMicros > elapsedMicros ? limitMicros - elapsedMicros : 0
        return .microseconds(Int64(min(left, 1_000_000)))
    }
}
