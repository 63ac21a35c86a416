import Foundation

// One input is one text message and, read as bytes, a recording. The message is decoded as a device and as a
// host message (a decoded one must encode and decode back to itself). The bytes then build recording messages
// with any name, offset and numbers (each must round trip), and drive a RecordingTimeline (DeckRecord) with a
// clock that never goes back: [op][step: 3 bytes]… where op picks pause, resume, a frame captured `step` µs ago,
// or a reading of the length.
// Properties: no trap; the round trips; pause/resume answer whether they changed anything; no file time while
// paused or for a frame from before the current stretch; a frame captured now sits at the file's length; the
// length never shrinks, stands still while paused and never exceeds the wall time; frames captured in order
// get file times in order, across pauses too (a pause leaves no gap and no overlap).
// Not here: RecordingLibrary.file(named:) (DeckHost) checks the file system too and does not compile alone.

private struct Reader {
    var bytes: [UInt8]
    var at = 0
    var isEmpty: Bool { at >= bytes.count }
    mutating func byte() -> UInt8 {
        guard at < bytes.count else { return 0 }
        defer { at += 1 }
        return bytes[at]
    }
    mutating func int(_ n: Int) -> UInt64 { (0..<n).reduce(UInt64(0)) { value, _ in value << 8 | UInt64(byte()) } }
    mutating func string() -> String {
        let length = Int(byte())
        let end = min(bytes.count, at + length)
        defer { at = end }
        return String(decoding: bytes[min(at, end)..<end], as: UTF8.self)
    }
    mutating func optional<T>(_ make: (inout Reader) -> T) -> T? { byte() & 1 == 0 ? nil : make(&self) }
}

private func roundTrip<M: WireMessage>(_ message: M) {
    guard let back = try? M.decode(message.encode()) else { preconditionFailure("\(message.type) does not decode") }
    precondition(back == message, "\(message.type) does not round trip")
}

private func pick<T: CaseIterable>(_ reader: inout Reader) -> T {
    let all = Array(T.allCases)
    return all[Int(reader.byte()) % all.count]
}

private func messages(_ reader: inout Reader) {
    let int = { (r: inout Reader) in Int(truncatingIfNeeded: r.int(8)) }
    roundTrip(
        DeviceMessage.recordStart(.init(displayId: int(&reader), fps: int(&reader), maxSide: reader.optional(int))))
    roundTrip(DeviceMessage.fetchRecording(.init(name: reader.string(), offset: int(&reader))))
    roundTrip(DeviceMessage.deleteRecording(.init(name: reader.string())))
    for message in [
        DeviceMessage.recordPause(.init()), .recordResume(.init()), .recordStop(.init()), .listRecordings(.init()),
    ] {
        roundTrip(message)
    }
    roundTrip(
        HostMessage.recordState(
            .init(
                state: pick(&reader), displayId: reader.optional(int), fps: reader.optional(int),
                elapsedMs: int(&reader),
                name: reader.optional { $0.string() }, reason: reader.optional { pick(&$0) })))
    roundTrip(HostMessage.recordDenied(.init(reason: pick(&reader), message: reader.string())))
    let entries = (0..<Int(reader.byte() % 4)).map { _ in
        HostMessage.RecordingEntry(
            name: reader.string(), size: int(&reader), durationMs: int(&reader),
            thumbnail: reader.optional { $0.string() },
            recording: reader.optional { $0.byte() & 2 != 0 })
    }
    roundTrip(HostMessage.recordings(.init(recordings: entries)))
    roundTrip(
        HostMessage.recordingChunk(
            .init(
                name: reader.string(), offset: int(&reader), size: int(&reader), sha256: reader.string(),
                data: reader.string())))
}

private func timeline(_ reader: inout Reader) {
    // Microseconds on a monotonic clock: anywhere in the first 2^52 (142 years).
    var now = reader.int(7) & (1 << 52 - 1)
    var line = RecordingTimeline(start: now)
    var length: UInt64 = 0
    var lastFrame: (instant: UInt64, time: UInt64)?
    while !reader.isEmpty {
        let op = reader.byte()
        let step = reader.int(3) << (UInt64(op >> 6) * 4)  // up to 2^36 µs (19 hours) at once
        switch op % 4 {
        case 0:
            now += step
            let paused = line.isPaused
            precondition(line.pause(at: now) == !paused, "pause answered wrong")
            precondition(line.isPaused, "not paused after pause")
        case 1:
            now += step
            let paused = line.isPaused
            precondition(line.resume(at: now) == paused, "resume answered wrong")
            precondition(!line.isPaused, "paused after resume")
        case 2:
            // A frame captured `step` µs ago (or before the start).
            let instant = now >= step ? now - step : 0
            guard let time = line.fileTime(of: instant) else {
                precondition(line.isPaused || instant < line.stretchStart || instant < line.start, "a frame lost")
                break
            }
            precondition(!line.isPaused && instant >= line.stretchStart, "a file time for a paused frame")
            precondition(time <= line.elapsed(at: now), "a frame after the file's end")
            if let last = lastFrame, instant >= last.instant {
                precondition(time >= last.time, "frames out of order in the file")
            }
            lastFrame = (instant, time)
        default:
            now += step
        }
        let elapsed = line.elapsed(at: now)
        precondition(elapsed >= length, "the length shrank")
        precondition(elapsed <= now - line.start, "longer than the wall time")
        if line.isPaused { precondition(line.elapsed(at: now + 1_000_000) == elapsed, "the length grew while paused") }
        if !line.isPaused, now >= line.stretchStart {
            precondition(line.fileTime(of: now) == elapsed, "a frame captured now is not at the file's length")
        }
        length = elapsed
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    // The transport hands the host a String: invalid UTF-8 arrives as U+FFFD.
    let text = Data(String(decoding: data, as: UTF8.self).utf8)
    if let message = try? DeviceMessage.decode(text) {
        precondition((try? DeviceMessage.decode(message.encode())) == message, "round trip changed the message")
        if case .recordStart(let start) = message {
            let fps = StreamRate.normalize(fps: start.fps)
            precondition(fps == StreamRate.low || fps == StreamRate.high, "a rate other than 30 or 60")
            if let side = start.maxSide {
                let size = ScreenGeometry.fit(width: 3840, height: 2160, maxSide: side)
                precondition(size.width <= 3840 && size.height <= 2160 && size.width % 2 == 0, "a bad recording size")
            }
        }
    }
    if let message = try? HostMessage.decode(text) {
        precondition((try? HostMessage.decode(message.encode())) == message, "round trip changed the message")
    }
    var reader = Reader(bytes: Array(data))
    messages(&reader)
    timeline(&reader)
    return 0
}
