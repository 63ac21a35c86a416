// swift-tools-version: 6.0
import PackageDescription

/// Targets follow DESIGN.md#seams: a pure core (`DeckKit`), a crypto layer over OpenSSL
/// (`DeckCrypto`), the Linux host (`DeckHost`), and one tiny system-library target per C library.
let package = Package(
    name: "TouchDeck",
    products: [
        .library(name: "DeckKit", targets: ["DeckKit"]),
        .executable(name: "touchdeck", targets: ["touchdeck"]),
        .executable(name: "touchdeck-encode-sample", targets: ["touchdeck-encode-sample"]),
    ],
    targets: [
        .target(name: "DeckKit"),
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CLibWebSockets", pkgConfig: "libwebsockets", providers: [.apt(["libwebsockets-dev"])]),
        // Avahi's and libpulse's headers are in /usr/include and the module maps link the libraries, so no pkgConfig:
        // their .pc files add only -D_REENTRANT and -pthread, which SwiftPM drops with a "prohibited flag" warning.
        .systemLibrary(name: "CAvahi", providers: [.apt(["libavahi-client-dev"])]),
        .systemLibrary(name: "CX11", pkgConfig: "xtst", providers: [.apt(["libxtst-dev"])]),
        .systemLibrary(name: "CPulse", providers: [.apt(["libpulse-dev"])]),
        .systemLibrary(
            name: "CAVCodec", pkgConfig: "libavcodec", providers: [.apt(["libavcodec-dev", "libavutil-dev"])]),
        // libswscale: a key icon from a device (PNG, JPEG, WebP in whatever pixel format they decode to) to RGBA.
        .systemLibrary(name: "CSwScale", pkgConfig: "libswscale", providers: [.apt(["libswscale-dev"])]),
        // libyuv ships no pkg-config file: the module map links it by name.
        .systemLibrary(name: "CYUV", providers: [.apt(["libyuv-dev"])]),
        // Every seam between the host and a desktop (screen, input, typing, keypad, volume, sound, lock, media
        // players) and the one value `Desktop` each back-end returns: Foundation and DeckKit only.
        .target(name: "DeckDesktop", dependencies: ["DeckKit"]),
        // The leveled logger every library writes to (dotted metadata keys, repeats folded): Foundation only.
        .target(name: "DeckLog"),
        .testTarget(name: "DeckLogTests", dependencies: ["DeckLog"]),
        // Fakes the test targets share (what HummingbirdTesting or NIOEmbedded are to their libraries).
        .target(name: "DeckTesting", dependencies: ["DeckDesktop", "DeckKit"]),
        .target(
            name: "DeckMedia",
            dependencies: ["DeckKit", "DeckDesktop", "DeckLog", "CAVCodec", "CSwScale", "CYUV", "CTurboJPEG"]),
        .systemLibrary(name: "CAVFormat", pkgConfig: "libavformat", providers: [.apt(["libavformat-dev"])]),
        // A recording: its own video encoder, AAC and fragmented MP4 (DESIGN.md#recording).
        .target(
            name: "DeckRecord",
            dependencies: ["DeckKit", "DeckMedia", "DeckDesktop", "DeckLog", "CAVCodec", "CAVFormat"]),
        .testTarget(
            name: "DeckRecordTests", dependencies: ["DeckRecord", "DeckMedia", "DeckDesktop", "DeckTesting", "DeckKit"]),
        .executableTarget(name: "touchdeck-encode-sample", dependencies: ["DeckMedia", "DeckKit", "DeckLog"]),
        .testTarget(
            name: "DeckMediaTests",
            dependencies: ["DeckMedia", "DeckDesktop", "DeckLog", "DeckKit", "CAVCodec", "CTurboJPEG"]),
        .systemLibrary(name: "CXrandr", pkgConfig: "xrandr", providers: [.apt(["libxrandr-dev"])]),
        // libXss: the MIT-SCREEN-SAVER extension, which says whether the screensaver (or a locker using it) is on.
        .systemLibrary(name: "CXss", pkgConfig: "xscrnsaver", providers: [.apt(["libxss-dev"])]),
        // Xdamage.h includes Xfixes.h; the module map links both libraries.
        .systemLibrary(
            name: "CXDamage", pkgConfig: "xdamage", providers: [.apt(["libxdamage-dev", "libxfixes-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        // GNOME on Wayland: GDBus (Mutter's D-Bus APIs) and PipeWire (its screen-cast streams), with one C shim for
        // what Swift cannot call (variadic GVariant constructors, SPA POD builder macros).
        // glib-2.0's .pc gives the include folders gio's headers need; gio-2.0's would add -pthread (through
        // gmodule), which SwiftPM refuses with a warning. The module map links gio, gobject and glib.
        .systemLibrary(name: "CGio", pkgConfig: "glib-2.0", providers: [.apt(["libglib2.0-dev"])]),
        // PipeWire's own .pc files add -D_REENTRANT: a .pc of ours (named by its path) gives only the folders.
        .systemLibrary(
            name: "CPipeWire", pkgConfig: Context.packageDirectory + "/Sources/CPipeWire/pipewire-headers.pc",
            providers: [.apt(["libpipewire-0.3-dev"])]),
        .target(name: "CDeckShim", dependencies: ["CGio", "CPipeWire"]),
        // The compositor's keymap as its clients see it (which keysyms Mutter can type): wayland-client + xkbcommon.
        .systemLibrary(name: "CWayland", pkgConfig: "wayland-client", providers: [.apt(["libwayland-dev"])]),
        .systemLibrary(name: "CXKBCommon", pkgConfig: "xkbcommon", providers: [.apt(["libxkbcommon-dev"])]),
        .target(
            name: "DeckWayland",
            dependencies: [
                "DeckKit", "DeckDesktop", "CGio", "CPipeWire", "CDeckShim", "CWayland", "CXKBCommon",
                "CWaylandProtocols",
            ]),
        // wayland-scanner's output for the shipped protocol XML (scripts/regen-wayland-protocols), committed.
        .target(name: "CWaylandProtocols", dependencies: ["CWayland"], exclude: ["protocol"]),
        .target(name: "DeckCrypto", dependencies: ["DeckKit", "COpenSSL"]),
        .target(name: "DeckTransport", dependencies: ["DeckKit", "COpenSSL", "CLibWebSockets"]),
        // The whole X11 back-end: capture (XShm, XDamage, the cursor), monitors (XRandR), the lock
        // (MIT-SCREEN-SAVER), XTest pointer and keys, the key bindings, over one `Display*` per user.
        .target(
            name: "DeckX11", dependencies: ["DeckKit", "DeckDesktop", "CX11", "CXrandr", "CXss", "CXDamage"]),
        .target(name: "DeckActions", dependencies: ["DeckKit", "DeckDesktop"]),
        // The computer's sound over libpulse, its one owner: routing through our null sink, capture of its
        // monitor, and the volume gauge.
        .target(name: "DeckSound", dependencies: ["DeckDesktop", "DeckLog", "CPulse"]),
        .target(
            name: "DeckHost",
            dependencies: [
                "DeckKit", "DeckCrypto", "DeckTransport", "DeckDesktop", "DeckLog", "DeckActions", "DeckMedia",
                "DeckRecord",
                "COpenSSL", "CAvahi", "DeckWayland", "DeckX11", "DeckSound",
            ]),
        .executableTarget(
            name: "touchdeck", dependencies: ["DeckHost", "DeckKit", "DeckMedia", "DeckLog", "CDeckShim"]),
        .executableTarget(name: "touchdeck-peer", dependencies: ["DeckHost", "DeckCrypto", "DeckKit"]),
        // Counts malloc calls for the bench's per-frame allocation numbers; linked into touchdeck-bench only.
        .target(name: "CAllocCount"),
        .executableTarget(
            name: "touchdeck-bench",
            dependencies: ["DeckKit", "DeckCrypto", "DeckHost", "DeckMedia", "DeckTransport", "CAllocCount"]),
        .testTarget(name: "DeckKitTests", dependencies: ["DeckKit"]),
        .testTarget(name: "DeckCryptoTests", dependencies: ["DeckCrypto", "DeckKit"]),
        .testTarget(name: "DeckTransportTests", dependencies: ["DeckTransport"]),
        .testTarget(
            name: "DeckActionsTests",
            dependencies: ["DeckActions", "DeckDesktop", "DeckSound", "DeckTesting", "DeckKit"]),
        .testTarget(name: "DeckDesktopTests", dependencies: ["DeckDesktop", "DeckTesting", "DeckKit"]),
        .testTarget(
            name: "DeckX11Tests",
            dependencies: ["DeckX11", "DeckDesktop", "DeckActions", "DeckTesting", "DeckKit", "CX11"]),
        .testTarget(
            name: "DeckWaylandTests", dependencies: ["DeckWayland", "DeckDesktop", "DeckKit", "CDeckShim", "CGio"]),
        .testTarget(
            name: "DeckHostTests",
            dependencies: [
                "DeckHost", "DeckKit", "DeckCrypto", "DeckDesktop", "DeckLog", "DeckTesting", "DeckSound",
                "DeckActions",
            ]),
        .testTarget(name: "DeckSoundTests", dependencies: ["DeckSound", "DeckDesktop"]),
    ]
)
