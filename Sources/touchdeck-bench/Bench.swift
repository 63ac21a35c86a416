/// A tiny benchmark harness. Each suite lives in its own file and registers a `BenchSuite`;
/// results print as `name  ops/s`, and optionally as a ratio against a baseline measured in the same run,
/// so numbers from different machines can be compared by their ratios.
enum Bench {
    /// Runs `body` `iterations` times after a short warm-up; prints and returns operations per second.
    @discardableResult
    static func measure(_ name: String, iterations: Int, _ body: () -> Void) -> Double {
        let rate = opsPerSecond(iterations: iterations, body)
        print("\(pad(name))  \(format(rate)) ops/s")
        return rate
    }

    /// Measures a baseline and the subject with the same iteration count, printing both and the subject's
    /// speed as a multiple of the baseline's ("0.93× memcpy baseline" = 7 % slower than the copy).
    @discardableResult
    static func compare(
        _ name: String, iterations: Int, baseline: String, reference: () -> Void, subject body: () -> Void
    ) -> Double {
        let base = measure(baseline, iterations: iterations, reference)
        let rate = opsPerSecond(iterations: iterations, body)
        let ratio = rate / base
        print("\(pad(name))  \(format(rate)) ops/s  = \(fraction(ratio))× \(baseline) baseline")
        return ratio
    }

    private static func opsPerSecond(iterations: Int, _ body: () -> Void) -> Double {
        for _ in 0..<max(1, iterations / 10) { body() }
        let elapsed = ContinuousClock().measure {
            for _ in 0..<iterations { body() }
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Double(iterations) / max(seconds, 1e-9)
    }

    private static func pad(_ name: String) -> String {
        name.count >= 24 ? name : name + String(repeating: " ", count: 24 - name.count)
    }

    private static func format(_ rate: Double) -> String { String(Int(rate.rounded())) }

    private static func fraction(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let cents = hundredths % 100
        return "\(hundredths / 100).\(cents < 10 ? "0" : "")\(cents)"
    }
}

/// A named group of benchmarks, run in order by `main.swift`.
struct BenchSuite: Sendable {
    let name: String
    let run: @Sendable () -> Void
}

/// Keeps a value alive so the optimizer cannot delete the work that produced it.
@_optimize(none)
func blackHole<T>(_ value: T) {}
