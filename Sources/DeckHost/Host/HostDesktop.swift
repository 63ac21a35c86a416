import DeckActions
import DeckDesktop
import DeckLog
import DeckMedia
import DeckSound
import DeckWayland
import DeckX11
import Foundation

/// What presses, `listApps`, the volume gauge, the keypad and screen viewing reach on the computer (DESIGN.md#seams).
/// The daemon passes the live desktop, the in-process tests pass fakes; the session code sees only this.
public struct HostDesktop: Sendable {
    /// Runs app, command and terminal buttons.
    public var actions: ActionRunner
    /// Lists the launchable desktop entries.
    public var apps: AppCatalog
    /// The default output's volume and mute.
    public var volume: VolumeControl
    /// Types keypad keys.
    public var keys: KeyInjector
    /// Types a viewer's text and special keys (protocol 2).
    public var typing: TypingSink
    /// Volume changes made anywhere (devices, keyboard keys, `pactl`), in the order they happened.
    public var volumeFeed: VolumeFeed
    /// The folder command buttons write their output to (shown by `touchdeck status`).
    public var commandLogs: String
    /// The monitors and their pictures, for screen viewing.
    public var screen: ScreenSource
    /// Where a viewer's touches go: the pointer, its buttons and the wheel.
    public var input: InputSink
    /// Whether the desktop is locked or its screensaver is on (viewing is refused and stopped then).
    public var isLocked: @Sendable () async -> Bool
    /// Which H.264 encoder screen viewing opens (`--encoder`).
    public var encoder: EncoderChoice
    /// The computer's sound, for a viewer who asks for it (and a recording later).
    public var sound: SoundSource
    /// Why a viewer's pointer and keys reach nothing on this desktop (a Wayland desktop with no input route);
    /// nil when they do. A viewer is told in `screenStarted.viewOnly`.
    public var inputUnavailable: String? = nil
    /// The default input's mute, which `micMute` keys toggle and show.
    public var mic: MicControl = .unavailable
    /// The microphone's and apps' levels sliders move (DeckServer+Sliders).
    public var levels: SoundLevels = .unavailable
    /// Microphone mute changes made anywhere, in the order they happened.
    public var micFeed = MicFeed()
    /// The media players media keys reach, and what they show (`mediaState`).
    public var media: MediaControl = .unimplemented
    /// The computer's clipboard, traded with a viewer allowed to (DESIGN.md#clipboard).
    public var clipboard: ClipboardAccess = .unimplemented
    /// Which app has the focus, for decks that follow it (`FocusFollow`).
    public var focus: FocusWatch = .unavailable("no desktop")
    /// The default file manager and web browser a first run's starter deck opens (`StarterDeck`); nil: a first run
    /// starts with an empty deck (the fakes).
    public var starterApps: (@Sendable () -> StarterApps)? = nil
    /// Extend: monitors made for a device (PROTOCOL §6 "Extend"); not offered unless the back-end can.
    public var virtualMonitors: VirtualMonitors = .notOffered("this desktop cannot add a monitor")

    /// A desktop from its parts.
    public init(
        actions: ActionRunner, apps: AppCatalog, volume: VolumeControl, keys: KeyInjector, volumeFeed: VolumeFeed,
        commandLogs: String, screen: ScreenSource = .noDisplay, input: InputSink = .unimplemented,
        isLocked: @escaping @Sendable () async -> Bool = { false }, encoder: EncoderChoice = .auto,
        sound: SoundSource = .none, typing: TypingSink = .unimplemented
    ) {
        self.actions = actions
        self.typing = typing
        self.apps = apps
        self.volume = volume
        self.keys = keys
        self.volumeFeed = volumeFeed
        self.commandLogs = commandLogs
        self.screen = screen
        self.input = input
        self.isLocked = isLocked
        self.encoder = encoder
        self.sound = sound
    }

    /// The real desktop of `environment`: desktop entries, the user's shell and terminal, PulseAudio at
    /// `$PULSE_SERVER` (or the default), and the screen, pointer and keys of the back-end `DesktopBackend.choose`
    /// picks: XTest, XRandR and XShm on `$DISPLAY`, or Mutter's D-Bus APIs and PipeWire on GNOME/Wayland.
    /// `configDirectory` keeps the ScreenCast portal's restore token (nil: `$XDG_CONFIG_HOME/touchdeck`). The
    /// sound routing's record lives in the user's state folder (`soundRoutingFolder`), not the config folder:
    /// after a crash, any start of the host (whatever its `--config-dir`) and `touchdeck doctor --fix` find it.
    /// `$XDG_STATE_HOME/touchdeck` (created 0700): where the sound routing's record is kept.
    public static func soundRoutingFolder(_ environment: HostEnvironment = .current) -> URL {
        let folder = URL(fileURLWithPath: environment.stateHome + "/touchdeck")
        try? FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return folder
    }

    public static func live(
        environment: HostEnvironment = .current, encoder: EncoderChoice = .auto, configDirectory: URL? = nil,
        log: Logger? = nil
    ) -> HostDesktop {
        let feed = VolumeFeed()
        let store = RoutingRecordStore.file(in: soundRoutingFolder(environment))
        let capture = SoundCapture(store: store, log: log ?? .silent)
        // While the sound is routed to our sink, that sink is the default: the gauge keeps the speakers.
        let micFeed = MicFeed()
        let (volume, mic) = VolumeControl.liveWithMic(
            routedSink: SoundRouter.sinkName, speakers: { capture.speakers }, onChange: feed.report,
            onMicChange: micFeed.report)
        // One value for presses and for what the keys show, so both follow the same player.
        let media = MediaControl.mpris()
        let chosen = backend(environment: environment, configDirectory: configDirectory)
        var desktop = HostDesktop(
            actions: .live(environment: environment, media: media), apps: .live(environment: environment),
            volume: volume, keys: chosen.keypad, volumeFeed: feed,
            commandLogs: CommandRunner.logDirectory(environment: environment), screen: chosen.screen.sharingCaptures(),
            input: chosen.input, isLocked: chosen.lock.isLocked, encoder: encoder, sound: .live(capture),
            typing: chosen.typing)
        desktop.inputUnavailable = chosen.inputUnavailable
        desktop.media = media
        desktop.mic = mic
        desktop.micFeed = micFeed
        desktop.levels = .live()
        desktop.clipboard = chosen.clipboard
        desktop.focus = chosen.focus
        desktop.starterApps = { StarterApps.find(environment: environment) }
        desktop.virtualMonitors = chosen.virtualMonitors
        desktop.screen = desktop.screen.hiding(chosen.virtualMonitors.parked)
        // A host that was killed may have left a monitor it made for Extend: taken away before anyone views.
        if let note = chosen.virtualMonitors.cleanUp() { log?.notice(note) }
        return desktop
    }

    /// The desktop of the back-end `DesktopBackend.choose` picks for this session.
    static func backend(environment: HostEnvironment, configDirectory: URL?) -> Desktop {
        switch DesktopBackend.choose(
            environment: ProcessInfo.processInfo.environment, mutterOnBus: MutterDesktop.isAvailable,
            portalOnBus: PortalDesktop.isAvailable)
        {
        case .x11:
            var desktop = X11Desktop.make()
            desktop.virtualMonitors = X11Desktop.virtualMonitors(stateDirectory: soundRoutingFolder(environment))
            return desktop
        case .mutter: return MutterDesktop().desktop
        case .portal:
            let folder =
                configDirectory
                ?? URL(fileURLWithPath: environment["XDG_CONFIG_HOME"] ?? NSHomeDirectory() + "/.config")
                .appendingPathComponent("touchdeck")
            return PortalDesktop.desktop(configDirectory: folder, stateDirectory: soundRoutingFolder(environment))
        case .waylandUnsupported, .none: return .unavailable(lock: .logind())
        }
    }

    /// In-memory parts: every press answers `.ok` unless `actions` says otherwise, `apps` is the catalog,
    /// the volume starts at `volume`, keys answer `keyResult` and are reported to `typed`, the screen is
    /// `screen` (none unless given), text and special keys go to `typing`.
    public static func fake(
        actions: ActionRunner = .fake(), apps: [CatalogApp] = [],
        volume: VolumeState = VolumeState(available: true, level: 0.5, muted: false),
        keyResult: ActionResult = .ok, typed: @escaping @Sendable (KeypadKey) -> Void = { _ in },
        screen: ScreenSource = .noDisplay, input: InputSink = .unimplemented,
        isLocked: @escaping @Sendable () async -> Bool = { false }, sound: SoundSource = .none,
        typing: TypingSink = .unimplemented, clipboard: ClipboardAccess = .unimplemented
    ) -> HostDesktop {
        let feed = VolumeFeed()
        var desktop = HostDesktop(
            actions: actions, apps: .fake(apps), volume: .fake(initial: volume, onChange: feed.report),
            keys: .fake(result: keyResult, record: typed), volumeFeed: feed, commandLogs: "/nonexistent/logs",
            screen: screen, input: input, isLocked: isLocked, encoder: .x264, sound: sound, typing: typing)
        desktop.clipboard = clipboard
        return desktop
    }
}

/// Carries volume changes from the sound server's thread to the host's actor without reordering them.
/// Only the newest few wait if the host falls behind: a gauge needs the latest level, not every step.
public struct VolumeFeed: Sendable {
    /// The changes, for the host's one consumer.
    public let changes: AsyncStream<VolumeState>
    private let continuation: AsyncStream<VolumeState>.Continuation

    /// An empty feed.
    public init() {
        (changes, continuation) = AsyncStream.makeStream(of: VolumeState.self, bufferingPolicy: .bufferingNewest(8))
    }

    /// Hands a new state to the host; returns at once (it runs on libpulse's thread).
    public var report: @Sendable (VolumeState) -> Void {
        let continuation = self.continuation
        return { continuation.yield($0) }
    }

    /// Ends the stream.
    public func finish() { continuation.finish() }
}
