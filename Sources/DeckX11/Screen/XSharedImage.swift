import CX11
import DeckDesktop
import Glibc

/// One XShm image and the System V shared-memory segment behind it, attached to one display; detached and
/// freed in `deinit`. The X server writes the pixels straight into the segment, so a grab costs one copy less
/// than XGetImage's (which sends them through the socket). Used only on `X11Screen`'s queue, and released
/// before its display closes.
final class XSharedImage {
    let image: UnsafeMutablePointer<XImage>
    /// Held, not just its pointer: the detach in `deinit` needs the display open, and an optimized build may
    /// release an owner's other stored properties (the display among them) before this one — seen as a crash
    /// in XShmDetach when a capture stopped, in release builds only.
    private let connection: XDisplay
    private var display: OpaquePointer { connection.handle }
    /// XShmCreateImage keeps a pointer to this in the image, so it lives at a fixed address of its own.
    private let segment: UnsafeMutablePointer<XShmSegmentInfo>
    /// Set by the owner when the display's connection was lost: no request may be sent on it any more, so
    /// only this process's side of the segment is undone.
    var serverGone = false

    /// A `width`×`height` image of the root window's depth, attached; nil when the server refuses shared memory
    /// (a remote display, a container without IPC) or the segment cannot be made.
    init?(connection: XDisplay, width: Int, height: Int) {
        let display = connection.handle
        // Everything is made in locals first: a failable init that fails after its properties are set would
        // leave cleanup to a deinit that expects an attached segment.
        let screen = XDefaultScreen(display)
        let segment = UnsafeMutablePointer<XShmSegmentInfo>.allocate(capacity: 1)
        segment.initialize(to: XShmSegmentInfo())
        guard
            let image = XShmCreateImage(
                display, XDefaultVisual(display, screen), UInt32(XDefaultDepth(display, screen)), ZPixmap, nil,
                segment, UInt32(width), UInt32(height))
        else {
            segment.deallocate()
            return nil
        }
        guard Self.attach(image, segment, on: display) else {
            _ = cx11_destroy_image(image)
            segment.deallocate()
            return nil
        }
        self.image = image
        self.connection = connection
        self.segment = segment
    }

    deinit {
        if !serverGone {
            XShmDetach(display, segment)
            XSync(display, 0)
        }
        // For an XShm image this frees only the XImage; the segment is ours to detach.
        _ = cx11_destroy_image(image)
        shmdt(segment.pointee.shmaddr)
        segment.deallocate()
    }

    /// Makes the segment, maps it here and has the server map it too; false (and nothing left behind) on failure.
    private static func attach(
        _ image: UnsafeMutablePointer<XImage>, _ segment: UnsafeMutablePointer<XShmSegmentInfo>,
        on display: OpaquePointer
    ) -> Bool {
        let size = Int(image.pointee.bytes_per_line) * Int(image.pointee.height)
        let id = cx11_shm_create(size)
        guard id >= 0 else { return false }
        // Marked for removal at once: the kernel frees it when both sides have detached, even if we crash.
        defer { _ = cx11_shm_remove(id) }
        guard let address = shmat(id, nil, 0), address != UnsafeMutableRawPointer(bitPattern: -1) else {
            return false
        }
        segment.pointee.shmid = id
        segment.pointee.shmaddr = address.assumingMemoryBound(to: CChar.self)
        segment.pointee.readOnly = 0
        image.pointee.data = segment.pointee.shmaddr
        XErrorTrap.clear(display)
        let sent = XShmAttach(display, segment) != 0
        // The server reports a refused attach (BadAccess) asynchronously: the round trip brings it in.
        XSync(display, 0)
        guard sent, XErrorTrap.last(display) == 0 else {
            shmdt(address)
            return false
        }
        return true
    }

    /// Reads the rectangle at (`x`, `y`) of `drawable` into the image; false when the server refused.
    func read(from drawable: Drawable, x: Int, y: Int) -> Bool {
        XErrorTrap.clear(display)
        let ok = XShmGetImage(display, drawable, image, Int32(x), Int32(y), cx11_all_planes()) != 0
        return ok && XErrorTrap.last(display) == 0
    }
}

@available(*, unavailable) extension XSharedImage: Sendable {}
