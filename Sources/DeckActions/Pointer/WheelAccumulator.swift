/// Turns a finger's travel along one axis into whole wheel notches, keeping what is left for the next time.
///
/// Pans arrive as many small deltas (a few pixels each at 60 per second); sending nothing for each and
/// forgetting them would make slow pans never scroll, so the fraction of a notch carries over.
struct WheelAccumulator: Sendable, Equatable {
    /// Travel, in monitor pixels, that makes one notch. A wheel notch scrolls about three lines (≈ 50 px) in
    /// GTK, Qt and browser apps, so the content roughly keeps up with the finger.
    static let notch = 50.0
    /// At most this many notches per message, per axis; the excess is dropped rather than queued, so a
    /// wild `dy` cannot keep the desktop busy.
    static let maxNotches = 40

    /// Travel not yet turned into a notch, always less than one notch either way.
    private(set) var remainder = 0.0

    /// Adds `travel` pixels (signed) and returns the signed number of notches now due.
    mutating func add(_ travel: Double) -> Int {
        guard travel.isFinite else { return 0 }
        let total = remainder + travel
        let notches = (total / Self.notch).rounded(.towardZero)
        guard abs(notches) <= Double(Self.maxNotches) else {
            remainder = 0
            return notches < 0 ? -Self.maxNotches : Self.maxNotches
        }
        remainder = total - notches * Self.notch
        return Int(notches)
    }
}
