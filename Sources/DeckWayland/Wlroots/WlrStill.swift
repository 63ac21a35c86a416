import CWaylandProtocols
import DeckDesktop
import Foundation

/// One picture of a wlroots output, copied with screencopy's `copy`, which answers whether or not the output is
/// painting. xdg-desktop-portal-wlr copies an output only once it is damaged, so a cast of an output where nothing
/// changes (Extend's new, empty monitor, once sway has painted its new mode before the cast asked) would send no
/// picture at all; `PipeWireStream` shows this one until the cast's first (DESIGN.md#viewing).
///
/// `@unchecked Sendable`: immutable after `init`; the mapped pixels are only read, and unmapped in `deinit`.
final class StillPicture: @unchecked Sendable {
    private var picture: deck_wlr_picture
    let width: Int
    let height: Int
    let stride: Int
    let format: PixelFormat

    /// Copies the output named `output` (its wl_output name) on `display` (nil: `$WAYLAND_DISPLAY`); nil when the
    /// compositor has no screencopy, no such output, or gives nothing within `timeoutMilliseconds`.
    init?(output: String, display: String? = nil, timeoutMilliseconds: Int32 = 1000) {
        var picture = deck_wlr_picture()
        guard deck_wlr_screencopy(display, output, timeoutMilliseconds, &picture) == 0 else { return nil }
        self.picture = picture
        width = Int(picture.width)
        height = Int(picture.height)
        stride = Int(picture.stride)
        format = picture.format == 0 ? .bgra : .bgrx  // wl_shm ARGB8888 / XRGB8888, little-endian
    }

    deinit { deck_wlr_picture_free(&picture) }

    /// The picture as a frame whose pixels are valid while this object lives.
    var frame: CapturedFrame {
        CapturedFrame(
            width: width, height: height, stride: stride, format: format, pixels: UnsafeRawPointer(picture.pixels),
            damage: [PixelRect(x: 0, y: 0, width: width, height: height)], capturedAt: CapturedFrame.now())
    }
}
