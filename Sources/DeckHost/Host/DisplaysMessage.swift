import DeckDesktop
import DeckKit
import DeckLog
import DeckMedia
import Foundation

/// Builds the `displays` answer (PROTOCOL §6 "Screen") from a screen source: every monitor left to right with
/// a 320 px JPEG thumbnail grabbed now, never ahead of time, so a picture of the desktop leaves the host only
/// when a device allowed to see it asks. Runs off the host's actor: grabs and JPEG encoding take tens of
/// milliseconds per monitor.
enum DisplaysMessage {
    /// The whole answer to a device that may not view the screen: no names, no sizes, no pictures.
    static let notAllowed = HostMessage.Displays(displays: [], status: .notAllowed)
    /// The answer when there is no desktop to capture.
    static let noPermission = HostMessage.Displays(displays: [], status: .noPermission)

    /// The monitors of `source` with their thumbnails; `noPermission` when it has no desktop or no monitor.
    /// A monitor whose picture cannot be taken is still listed, without a thumbnail.
    static func build(from source: ScreenSource, log: Logger) async -> HostMessage.Displays {
        let monitors: [Monitor]
        do {
            monitors = try await source.monitors()
        } catch {
            log.info("no display to list for screen viewing: \(error)")
            return noPermission
        }
        guard !monitors.isEmpty else { return noPermission }
        let compressor = try? JPEGCompressor()
        var entries: [HostMessage.DisplayEntry] = []
        // Sorted here too, so the order on the wire does not rest on each back-end keeping its promise.
        for monitor in Monitor.leftToRight(monitors) {
            let thumbnail = await thumbnail(of: monitor, from: source, using: compressor, log: log)
            entries.append(
                .init(
                    id: monitor.id, name: monitor.name, width: monitor.frame.width, height: monitor.frame.height,
                    thumbnail: thumbnail))
        }
        return .init(displays: entries, status: .ok)
    }

    private static func thumbnail(
        of monitor: Monitor, from source: ScreenSource, using compressor: JPEGCompressor?, log: Logger
    ) async -> String? {
        do {
            guard let compressor else { throw JPEGError(message: "no JPEG compressor") }
            return try Thumbnail.dataURL(of: try await source.grab(monitor), using: compressor)
        } catch {
            log.warning("could not take a thumbnail: \(error)", ["monitor.name": monitor.name])
            return nil
        }
    }
}
