import DeckScreen
import Foundation

/// A continuous capture through the ScreenCast portal (`ScreenCapture`): a `PortalSession` and a `PipeWireStream`
/// on the connection the portal opened. The restore token the start returned replaces the saved one.
final class PortalCapture: ScreenCapture, @unchecked Sendable {
    let session: PortalSession
    private let stream: PipeWireStream

    /// Starts a session with the saved token (the user is asked only without a valid one) and its stream.
    init(bus: SessionBus, token: PortalRestoreToken, fps: Int, handlers: CaptureHandlers) throws(ScreenSourceError) {
        let session: PortalSession
        do { session = try PortalSession(bus: bus, restoreToken: token.load()) } catch {
            throw Self.screenError(error)
        }
        if let renewed = session.restoreToken { try? token.save(renewed) }
        let ended = CaptureHandlers(frame: handlers.frame) { error in
            session.close()
            handlers.ended(error)
        }
        do throws(ScreenSourceError) {
            let remote: Int32
            do { remote = try session.openRemote() } catch { throw Self.screenError(error) }
            stream = try PipeWireStream(node: session.node, fps: fps, handlers: ended, remote: remote)
        } catch {
            session.close()
            throw error
        }
        self.session = session
    }

    deinit { stop() }

    static func screenError(_ error: PortalError) -> ScreenSourceError {
        switch error {
        case .denied: .captureFailed("the computer's user did not allow screen sharing")
        case .failed(let text): .captureFailed("ScreenCast portal: \(text)")
        }
    }

    func setFPS(_ fps: Int) { stream.setFPS(fps) }
    func refresh() { stream.refresh() }

    func stop() {
        stream.stop()
        session.close()
    }
}
