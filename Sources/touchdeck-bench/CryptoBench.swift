import DeckCrypto
import Foundation

/// Seal + open throughput of 300 KB binary frames (a large H.264 keyframe) through `SecureChannel`,
/// the per-frame cost the screen stream pays on the host (seal) and a device (open).
/// Returns the MB/s it printed, for a harness that compares runs.
@discardableResult
func runCryptoBench(frames: Int = 400) -> Double {
    let frameSize = 300 * 1024
    let toDevice = SecureRandom.bytes(32)
    let toHost = SecureRandom.bytes(32)
    let host = SecureChannel(sendKey: toDevice, receiveKey: toHost)
    var device = SecureChannel(sendKey: toHost, receiveKey: toDevice)
    let body = SecureRandom.bytes(frameSize)
    // One untimed round warms OpenSSL's provider lookups and the allocator.
    _ = try? device.openBinary(host.sealBinary(body))
    var opened = 0
    let elapsed = ContinuousClock().measure {
        for _ in 0..<frames {
            if let inner = try? device.openBinary(host.sealBinary(body)) { opened += inner.count }
        }
    }
    precondition(opened == frames * frameSize, "a frame failed to open")
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let megabytesPerSecond = Double(opened) / 1_000_000 / seconds
    let perFrame = seconds / Double(frames) * 1000
    print(
        String(
            format: "crypto.sealOpen300KB  %.1f MB/s  (%.3f ms per frame, seal+open, %d frames)",
            megabytesPerSecond, perFrame, frames))
    return megabytesPerSecond
}
