// swift-tools-version: 6.0
import PackageDescription

/// Targets follow STYLE practice 1: a pure core (`DeckKit`), a crypto layer over OpenSSL
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
        .systemLibrary(name: "CAvahi", pkgConfig: "avahi-client", providers: [.apt(["libavahi-client-dev"])]),
        .systemLibrary(name: "CX11", pkgConfig: "xtst", providers: [.apt(["libxtst-dev"])]),
        .systemLibrary(name: "CPulse", pkgConfig: "libpulse", providers: [.apt(["libpulse-dev"])]),
        .systemLibrary(
            name: "CAVCodec", pkgConfig: "libavcodec", providers: [.apt(["libavcodec-dev", "libavutil-dev"])]),
        // libyuv ships no pkg-config file: the module map links it by name.
        .systemLibrary(name: "CYUV", providers: [.apt(["libyuv-dev"])]),
        .target(name: "DeckMedia", dependencies: ["DeckKit", "CAVCodec", "CYUV"]),
        .systemLibrary(name: "CAVFormat", pkgConfig: "libavformat", providers: [.apt(["libavformat-dev"])]),
        // A recording: its own video encoder, AAC and fragmented MP4 (SPEC §11).
        .target(name: "DeckRecord", dependencies: ["DeckKit", "DeckMedia", "DeckScreen", "CAVCodec", "CAVFormat"]),
        .testTarget(name: "DeckRecordTests", dependencies: ["DeckRecord", "DeckMedia", "DeckScreen", "DeckKit"]),
        .executableTarget(name: "touchdeck-encode-sample", dependencies: ["DeckMedia", "DeckKit"]),
        .testTarget(name: "DeckMediaTests", dependencies: ["DeckMedia", "DeckKit", "CAVCodec"]),
        .systemLibrary(name: "CXrandr", pkgConfig: "xrandr", providers: [.apt(["libxrandr-dev"])]),
        // libXss: the MIT-SCREEN-SAVER extension, which says whether the screensaver (or a locker using it) is on.
        .systemLibrary(name: "CXss", pkgConfig: "xscrnsaver", providers: [.apt(["libxss-dev"])]),
        // Xdamage.h includes Xfixes.h; the module map links both libraries.
        .systemLibrary(
            name: "CXDamage", pkgConfig: "xdamage", providers: [.apt(["libxdamage-dev", "libxfixes-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        // GNOME on Wayland: GDBus (Mutter's D-Bus APIs) and PipeWire (its screen-cast streams), with one C shim for
        // what Swift cannot call (variadic GVariant constructors, SPA POD builder macros).
        .systemLibrary(name: "CGio", pkgConfig: "gio-2.0", providers: [.apt(["libglib2.0-dev"])]),
        .systemLibrary(name: "CPipeWire", pkgConfig: "libpipewire-0.3", providers: [.apt(["libpipewire-0.3-dev"])]),
        .target(name: "CDeckShim", dependencies: ["CGio", "CPipeWire"]),
        // The compositor's keymap as its clients see it (which keysyms Mutter can type): wayland-client + xkbcommon.
        .systemLibrary(name: "CWayland", pkgConfig: "wayland-client", providers: [.apt(["libwayland-dev"])]),
        .systemLibrary(name: "CXKBCommon", pkgConfig: "xkbcommon", providers: [.apt(["libxkbcommon-dev"])]),
        .target(
            name: "DeckWayland",
            dependencies: [
                "DeckKit", "DeckScreen", "DeckActions", "CGio", "CPipeWire", "CDeckShim", "CWayland", "CXKBCommon",
                "CWaylandProtocols",
            ]),
        // wayland-scanner's output for the shipped protocol XML (scripts/regen-wayland-protocols), committed.
        .target(name: "CWaylandProtocols", dependencies: ["CWayland"], exclude: ["protocol"]),
        .target(name: "DeckCrypto", dependencies: ["DeckKit", "COpenSSL"]),
        .target(name: "DeckTransport", dependencies: ["COpenSSL", "CLibWebSockets"]),
        // One X `Display*`'s life (open, a lost server, close) for every X class of the host.
        .target(name: "DeckX11", dependencies: ["CX11"]),
        .target(name: "DeckActions", dependencies: ["DeckKit", "CX11", "DeckX11", "CPulse"]),
        // The computer's sound: routing through our null sink and capture of its monitor, over libpulse.
        .target(name: "DeckSound", dependencies: ["CPulse"]),
        .target(name: "DeckScreen", dependencies: ["CX11", "DeckX11", "CXrandr", "CXss", "CXDamage", "CTurboJPEG"]),
        .target(
            name: "DeckHost",
            dependencies: [
                "DeckKit", "DeckCrypto", "DeckTransport", "DeckActions", "DeckScreen", "DeckMedia", "DeckRecord", "COpenSSL",
                "CAvahi", "DeckWayland", "DeckX11", "DeckSound",
            ]),
        .executableTarget(name: "touchdeck", dependencies: ["DeckHost", "DeckKit", "DeckMedia"]),
        .executableTarget(name: "touchdeck-peer", dependencies: ["DeckHost", "DeckCrypto", "DeckKit"]),
        .executableTarget(name: "touchdeck-bench", dependencies: ["DeckKit", "DeckCrypto", "DeckHost"]),
        .testTarget(name: "DeckKitTests", dependencies: ["DeckKit"]),
        .testTarget(name: "DeckCryptoTests", dependencies: ["DeckCrypto", "DeckKit"]),
        .testTarget(name: "DeckTransportTests", dependencies: ["DeckTransport"]),
        .testTarget(name: "DeckActionsTests", dependencies: ["DeckActions", "DeckKit"]),
        .testTarget(name: "DeckScreenTests", dependencies: ["DeckScreen", "DeckX11", "CTurboJPEG", "CX11"]),
        .testTarget(
            name: "DeckWaylandTests",
            dependencies: ["DeckWayland", "DeckScreen", "DeckActions", "DeckKit", "CDeckShim", "CGio"]),
        .testTarget(name: "DeckHostTests", dependencies: ["DeckHost", "DeckKit", "DeckCrypto", "DeckSound"]),
        .testTarget(name: "DeckSoundTests", dependencies: ["DeckSound"]),
    ]
)
