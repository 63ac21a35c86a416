import Foundation
import Testing

@testable import DeckSound

/// The sliders' own libpulse connection while there is no sound server: one reconnect every 2 s, never more. A
/// failed connect both reports FAILED and returns an error; each used to start a retry chain of its own, so the
/// chains doubled every 2 s and a host left running without a server spent whole cores on them.
@Test func withNoServerTheSlidersReconnectOnceEveryTwoSeconds() async throws {
    let name = "touchdeck-no-pulse-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let missing = "unix:" + FileManager.default.temporaryDirectory.appendingPathComponent(name).path
    let clock = ContinuousClock()
    let start = clock.now
    let levels = PulseLevels(server: missing, onChange: {})
    try await Task.sleep(for: .seconds(9))
    let attempts = levels.connectionAttempts
    // The sleep can end late when other tests hold the cooperative pool, so the bound follows the time that
    // really passed: the first at once, then one every 2 s (5 in 9 s; fewer on a loaded machine). Doubling
    // chains make 31 in 9 s.
    let seconds = Double((clock.now - start).components.seconds)
    let most = Int(seconds / 2) + 2
    #expect(attempts >= 1)
    #expect(attempts <= most, "\(attempts) connections in \(Int(seconds)) s without a server")
    if case .unavailable(let reason) = levels.level(of: .microphone) {
        #expect(reason == "no sound server")
    } else {
        Issue.record("a level without a server")
    }
}
