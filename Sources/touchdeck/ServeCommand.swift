import CDeckShim
import DeckHost
import DeckLog
import DeckMedia
import Foundation
import Synchronization

struct ServeCommand: Command {
    static let name = "serve"
    static let usage = [
        "serve [--port N] [--config-dir D] [--web-root D] [--no-mdns] [--log-level debug|info] "
            + "[--encoder auto|x264|vaapi|nvenc]"
    ]
    static let summary = "run the host in the foreground: the web client, pairing, the deck, screen viewing"
    static let options = [
        ("--port N", "the one port for HTTPS, WSS and plain HTTP (default 52801)"), configDirOption,
        (
            "--web-root D",
            "serve the web client from D (default: ../share/touchdeck/web by the binary, else the checkout's Web/)"
        ),
        ("--no-mdns", "do not advertise _touchdeck._tcp over mDNS"),
        ("--log-level L", "debug or info (default info)"),
        ("--encoder E", "auto (the first hardware encoder that opens, else x264), x264, vaapi or nvenc"),
    ]
    let arguments: Arguments
    var port = 52801
    var encoder = EncoderChoice.auto

    init(_ arguments: Arguments) throws {
        self.arguments = arguments
        if let text = arguments.options["port"] {
            guard let value = Int(text) else { throw UsageError("--port needs a number") }
            port = value
        }
        if let text = arguments.options["encoder"] {
            guard let choice = EncoderChoice(rawValue: text) else {
                throw UsageError("--encoder is auto, x264, vaapi or nvenc")
            }
            encoder = choice
        }
    }

    func validate() throws {
        try arguments.allow(
            options: ["port", "config-dir", "web-root", "log-level", "encoder"], flags: ["help", "no-mdns"])
        guard (0...65535).contains(port) else { throw UsageError("--port must be 0…65535") }
        guard arguments.positionals.isEmpty else { throw UsageError("serve takes no arguments") }
    }

    func run() async throws -> Int32 {
        Self.boundAllocatorArenas()
        let level: Logger.Level = arguments.options["log-level"] == "debug" ? .debug : .info
        let log = Logger.standardError(minimum: level)
        // Before anything starts: without its web client the host would answer 404 for everything.
        let webRoot = try WebRoot.find(option: arguments.options["web-root"])
        let options = HostDaemon.Options(
            port: port, configDirectory: arguments.configDirectory, webRoot: webRoot,
            advertise: !arguments.flags.contains("no-mdns"), encoder: EncoderProbe.resolve(encoder, log: log))
        try await HostDaemon(options: options, log: log).run()
        return 0
    }
}

extension ServeCommand {
    /// glibc gives every thread that allocates an arena of its own, up to 8 per core, and keeps freed memory in
    /// each: every viewing starts threads (capture, encoder, sound), so a host that viewers start and stop all
    /// day grew by 10-18 KB a cycle (2,000 start/stop cycles: 111 → 145 MB after the first 250). Two arenas
    /// helped, but not enough: glibc also raises its mmap threshold each time a mapped block is freed (up to
    /// 32 MiB), after which a viewing's frame-sized buffers come from the arenas and leave them fragmented —
    /// 97 → 167 MB over 1,500 cycles with two arenas, while what was in use grew by 3 KB a cycle. A fixed
    /// threshold of 256 KiB keeps those buffers mapped and returned when freed: 77 → 77 MB over the same cycles
    /// (docs/ARCHITECTURE.md, "Memory"). The hot paths reuse their frame buffers, so the maps are not made per
    /// frame. `MALLOC_ARENA_MAX` and `MALLOC_MMAP_THRESHOLD_` in the environment still win, and
    /// `TOUCHDECK_MALLOC=glibc` leaves glibc's own settings (`make bench` compares against them).
    static func boundAllocatorArenas() {
        let environment = ProcessInfo.processInfo.environment
        guard environment["TOUCHDECK_MALLOC"] != "glibc" else { return }
        if environment["MALLOC_ARENA_MAX"] == nil { _ = deck_bound_malloc_arenas(2) }
        if environment["MALLOC_MMAP_THRESHOLD_"] == nil { _ = deck_fix_malloc_mmap_threshold(256 * 1024) }
    }
}

/// `--encoder auto` is settled once when the host starts: the first encoder that opens then is the one every
/// viewing uses. Asked at each viewing instead, a computer without a GPU logged nvenc's and vaapi's failure
/// to open as a warning every time a device started viewing.
enum EncoderProbe {
    /// The choice for `choice`: itself unless it is `auto` and no hardware encoder opens now, then x264.
    static func resolve(_ choice: EncoderChoice, log: Logger) -> EncoderChoice {
        guard choice == .auto else { return choice }
        do {
            // Any size the hardware encoders accept; nothing is encoded.
            let configuration = VideoEncoder.Configuration(choice: .auto, maxSide: 1280)
            // The fallback's one line ("… did not open (…); using libx264") says it all when there is one.
            let said = Mutex(false)
            let probe = Logger(minimum: .debug) { _, message, metadata in
                said.withLock { $0 = true }
                log.info(message, metadata.merging(["encoder.choice": "auto"]) { $1 })
            }
            let encoder = try VideoEncoder(
                sourceWidth: 1280, sourceHeight: 720, configuration: configuration, log: probe)
            if !said.withLock({ $0 }) {
                log.info("screen viewing encodes with \(encoder.backend.codecName)", ["encoder.choice": "auto"])
            }
            // A hardware encoder that opened keeps `auto` (viewings try it first, recordings use x264 as before).
            return encoder.backend == .x264 ? .x264 : .auto
        } catch {
            // Not even x264 opened: leave the choice to each viewing, which reports its own failure.
            log.warning("no H.264 encoder opened: \(error)")
            return .auto
        }
    }
}
