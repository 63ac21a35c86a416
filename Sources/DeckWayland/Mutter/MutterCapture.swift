import DeckDesktop

/// A continuous capture of one monitor through Mutter (`ScreenCapture`): its own remote-desktop session recording
/// the monitor (the cursor as metadata, drawn in by the stream), consumed by a `PipeWireStream`. While it runs, the desktop's input
/// goes through its session, so pointer positions are in its stream's coordinates.
final class MutterCapture: ScreenCapture, @unchecked Sendable {
    let session: MutterSession
    private let stream: PipeWireStream
    private let desktop: MutterDesktop

    private let input: Bool

    /// Opens the session and the stream; blocks until Mutter has started the stream (a second or less). With
    /// `input: false` (thumbnails) the session only looks: a ScreenCast session alone, not used for input.
    /// `losesPictures` treats the stream's first pictures as lost (tests).
    init(
        desktop: MutterDesktop, bus: SessionBus, monitor: Monitor, fps: Int, handlers: CaptureHandlers,
        input: Bool = true, losesPictures: Int = 0
    ) throws(ScreenSourceError) {
        let session: MutterSession
        do { session = try MutterSession(bus: bus, monitor: monitor, cursor: .metadata, input: input) } catch {
            throw WaylandInput.screenError(error)
        }
        // The stream's end also ends the session: Mutter keeps nothing running for us.
        let ended = CaptureHandlers(frame: handlers.frame) { error in
            session.stop()
            handlers.ended(error)
        }
        do {
            stream = try PipeWireStream(
                node: session.node!, fps: fps, handlers: ended, losesPictures: losesPictures)
        } catch {
            session.stop()
            throw error
        }
        self.session = session
        self.desktop = desktop
        self.input = input
        if input {
            desktop.sessions.started(session)
            desktop.clipboard.attach(session)
        }
    }

    deinit { stop() }

    func setFPS(_ fps: Int) { stream.setFPS(fps) }
    func refresh() { stream.refresh() }

    func stop() {
        stream.stop()
        session.stop()
        desktop.sessions.ended(session)
        if input { desktop.clipboard.detach(session) }
    }
}
