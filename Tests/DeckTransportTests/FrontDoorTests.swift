import Foundation
import Testing

@testable import DeckTransport

/// What the waiting connections of one address may send before the host stops reading them for a while.
@Suite struct AddressBudgetTests {
    private let start = ContinuousClock.now
    private let limits = FrontDoorLimits(overrides: "bytesPerSecond=1000")

    private var budget: AddressBudget {
        var limits = limits
        limits.burstBytes = 2000
        return AddressBudget(limits: limits)
    }

    /// The pause lasts until the deficit is refilled and a quarter second's budget (here 250 bytes) more.
    @Test func aBurstPassesThenReadingPausesUntilTheDeficitAndAQuarterSecondAreRefilled() {
        var budget = budget
        #expect(budget.charge(1500, from: "a", now: start) == nil)
        #expect(budget.charge(500, from: "a", now: start) == nil, "exactly the burst")
        #expect(budget.charge(250, from: "a", now: start) == .milliseconds(500))
        #expect(budget.charge(100, from: "a", now: start + .milliseconds(500)) == nil, "a quarter second to spend")
        #expect(budget.charge(200, from: "a", now: start + .milliseconds(500)) == .milliseconds(300))
        #expect(budget.charge(100, from: "a", now: start + .seconds(3)) == nil, "refilled meanwhile")
    }

    /// A stranger that sends as fast as it may, read 4 KiB at a time as lws does, is paused and resumed about four
    /// times a second (it was 32 times, one wake-up of the service thread per read), and gets its budget.
    @Test func aStrangerKeptAtItsBudgetIsResumedFourTimesASecond() {
        let (pauses, read) = flood(FrontDoorLimits(), seconds: 10)
        #expect(pauses <= 41, "\(pauses) pauses in 10 s")
        #expect(read >= 128 * 1024 + 9 * 128 * 1024, "\(read) bytes read in 10 s")
        #expect(read <= 128 * 1024 + 11 * 128 * 1024, "\(read) bytes read in 10 s")
        // The old rule (read again as soon as the deficit is refilled), which `make bench` measures beside it.
        let (old, _) = flood(FrontDoorLimits(overrides: "resumeBytes=1"), seconds: 10)
        #expect(old >= 300, "\(old) pauses in 10 s")
    }

    /// Pauses and bytes read in `seconds` of a stranger read 4 KiB at a time whenever it is not paused.
    private func flood(_ limits: FrontDoorLimits, seconds: Int) -> (pauses: Int, read: Int) {
        var budget = AddressBudget(limits: limits)
        var now = start
        var read = 0
        var pauses = 0
        while now < start + .seconds(seconds) {
            read += 4096
            if let pause = budget.charge(4096, from: "a", now: now) {
                pauses += 1
                now += pause
            }
        }
        return (pauses, read)
    }

    @Test func addressesHaveTheirOwnBudgets() {
        var budget = budget
        #expect(budget.charge(2500, from: "a", now: start) == .milliseconds(750))
        #expect(budget.charge(2000, from: "b", now: start) == nil)
    }

    @Test func reconnectingDoesNotStartAnAddressAfresh() {
        var budget = budget
        // A flooder's connection is closed and it opens another at once: the same address, the same bucket.
        #expect(budget.charge(2000, from: "a", now: start) == nil)
        #expect(budget.charge(1000, from: "a", now: start + .milliseconds(10)) != nil)
    }

    @Test func refilledAddressesAreForgottenOnceManyAreTracked() {
        var budget = budget
        for n in 0..<300 { _ = budget.charge(10, from: "10.0.\(n / 256).\(n % 256)", now: start) }
        #expect(budget.tracked.count == 300)
        _ = budget.charge(10, from: "fresh", now: start + .seconds(5))
        #expect(budget.tracked == ["fresh"])
    }

    @Test func theDefaultBudgetTakesTwoLargestMessagesAtOnce() {
        var budget = AddressBudget(limits: FrontDoorLimits())
        #expect(budget.charge(64 * 1024, from: "a", now: start) == nil)
        #expect(budget.charge(64 * 1024, from: "a", now: start) == nil)
        #expect(budget.charge(64 * 1024, from: "a", now: start) == .milliseconds(750))
    }
}

/// Which `Origin` may open a WebSocket: the host's own https origins, loopback http when the app is served
/// there, and no Origin at all (boards and tools).
@Suite struct OriginPolicyTests {
    private let names: Set<String> = ["desk", "desk.local", "localhost", "127.0.0.1", "192.168.1.20", "::1"]
    private var policy: OriginPolicy { OriginPolicy(certifies: { names.contains($0) }, servesAppOnLoopbackHTTP: true) }

    @Test func theHostsOwnHTTPSOriginsPass() {
        for origin in [
            "https://desk:52801", "https://desk.local:52801", "https://192.168.1.20:52801", "https://[::1]:52801",
            "HTTPS://Desk.Local:52801", "https://localhost:52801",
        ] {
            #expect(policy.allows(origin, port: 52801), "\(origin)")
        }
        #expect(policy.allows(nil, port: 52801), "no Origin: a board or a tool")
    }

    @Test func otherOriginsAreRefused() {
        for origin in [
            "https://evil.example:52801", "https://evil.example", "https://desk:8443", "https://desk",
            "http://desk.local:52801", "http://192.168.1.20:52801", "null", "", "desk:52801",
            "https://desk:52801/path", "https://user@desk:52801", "https://[::1:52801", "ftp://desk:52801",
            "https://desk:0", "https://desk:99999", "https://desk:52801:1",
        ] {
            #expect(!policy.allows(origin, port: 52801), "\(origin)")
        }
    }

    @Test func loopbackHTTPPassesOnlyWhenTheAppIsServedThere() {
        for origin in [
            "http://127.0.0.1:52801", "http://localhost:52801", "http://[::1]:52801", "http://127.0.0.2:52801",
        ] {
            #expect(policy.allows(origin, port: 52801), "\(origin)")
            let closed = OriginPolicy(certifies: { names.contains($0) }, servesAppOnLoopbackHTTP: false)
            #expect(!closed.allows(origin, port: 52801), "\(origin)")
        }
        #expect(!policy.allows("http://127.0.0.1:8000", port: 52801), "another server on this computer")
        #expect(!policy.allows("http://127.evil.example:52801", port: 52801))
    }

    @Test func theServerCertificatesNamesAreTheHTTPSOrigins() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let identity = LocalIdentity(dnsNames: ["desk.local", "localhost"], ipAddresses: ["127.0.0.1", "10.1.2.3"])
        let files = try CertificateStore.prepare(in: directory, identity: identity)
        let policy = OriginPolicy(certificate: files.serverCertificate, servesAppOnLoopbackHTTP: false)
        #expect(policy.allows("https://desk.local:443", port: 443))
        #expect(policy.allows("https://10.1.2.3:9", port: 9))
        #expect(!policy.allows("https://10.1.2.4:9", port: 9))
        #expect(!policy.allows("https://other.local:9", port: 9))
        let unreadable = OriginPolicy(
            certificate: directory.appendingPathComponent("none.pem"), servesAppOnLoopbackHTTP: false)
        #expect(!unreadable.allows("https://desk.local:443", port: 443))
    }
}
