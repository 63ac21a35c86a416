import DeckDesktop
import Foundation

/// A continuous capture through the portal (`ScreenCapture`): a `PortalSession` (a screen cast, or a remote-desktop
/// session whose input the desktop uses while it runs) and a `PipeWireStream` on the connection the portal opened.
/// The restore token the start returned replaces the saved one, once the stream is known to show the asked monitor.
final class PortalCapture: ScreenCapture, @unchecked Sendable {
    let session: PortalSession
    private let stream: PipeWireStream
    private let ended: @Sendable (PortalSession) -> Void

    /// Starts a session of `kind` with the saved token (the user is asked only without a valid one) and its
    /// stream; `started` and `ended` hear of the session (the desktop's input goes through it meanwhile). With
    /// `monitor`, a stream of another size is refused (the user chose another monitor in the portal's chooser) and
    /// its token is not kept. `still`: a picture of the monitor taken another way, shown until the stream's first
    /// (`PipeWireStream`).
    init(
        bus: SessionBus, kind: PortalSession.Kind = .screenCast, token: PortalRestoreToken, monitor: Monitor? = nil,
        fps: Int, handlers: CaptureHandlers, still: (@Sendable () -> StillPicture?)? = nil,
        started: @Sendable (PortalSession) -> Void = { _ in },
        ended: @escaping @Sendable (PortalSession) -> Void = { _ in }
    ) throws(ScreenSourceError) {
        let session: PortalSession
        do { session = try PortalSession(bus: bus, kind: kind, restoreToken: token.load()) } catch {
            throw Self.screenError(error)
        }
        if let monitor, let given = session.stream, !Self.fits(monitor, width: given.width, height: given.height) {
            session.close()
            throw .captureFailed(
                "the desktop portal gave a \(given.width)×\(given.height) monitor, not \(monitor.name) "
                    + "(\(monitor.frame.width)×\(monitor.frame.height)): choose \(monitor.name) when the computer asks")
        }
        if let renewed = session.restoreToken { try? token.save(renewed) }
        let streamEnded = CaptureHandlers(frame: handlers.frame) { error in
            session.close()
            ended(session)
            handlers.ended(error)
        }
        do throws(ScreenSourceError) {
            let remote: Int32
            do { remote = try session.openRemote() } catch { throw Self.screenError(error) }
            guard let node = session.stream?.node else { throw .captureFailed("the portal started no stream") }
            stream = try PipeWireStream(node: node, fps: fps, handlers: streamEnded, remote: remote, still: still)
        } catch {
            session.close()
            throw error
        }
        self.session = session
        self.ended = ended
        started(session)
    }

    deinit { stop() }

    static func screenError(_ error: PortalError) -> ScreenSourceError {
        switch error {
        case .denied: .captureFailed("the computer's user did not allow screen sharing")
        case .failed(let text): .captureFailed("desktop portal: \(text)")
        }
    }

    /// Whether a stream of `width`×`height` can be `monitor`: its pixels, or its layout size (a portal may give
    /// either for a scaled monitor), either way round. The portal names no output (xdg-desktop-portal-wlr 0.7 gives
    /// every stream the position 0,0), so two monitors of the same size cannot be told apart here.
    static func fits(_ monitor: Monitor, width: Int, height: Int) -> Bool {
        guard width > 0, height > 0 else { return true }  // the portal gave no size
        return streamSizes(of: monitor).contains { size in
            [(size.0, size.1), (size.1, size.0)].contains { abs($0.0 - width) <= 1 && abs($0.1 - height) <= 1 }
        }
    }

    /// The sizes a portal may give a stream of `monitor`: its pixels, and its layout size.
    static func streamSizes(of monitor: Monitor) -> [(Int, Int)] {
        let pixels = (monitor.frame.width, monitor.frame.height)
        let scale = max(monitor.scale, 1)
        return [pixels, (Int((Double(pixels.0) / scale).rounded()), Int((Double(pixels.1) / scale).rounded()))]
    }

    var inputRefusal: String? { session.inputRefusal }

    func setFPS(_ fps: Int) { stream.setFPS(fps) }
    func refresh() { stream.refresh() }

    func stop() {
        stream.stop()
        session.close()
        ended(session)
    }
}
