/// Every text message the host sends to a device (PROTOCOL §2–§6).
public enum HostMessage: WireMessage {
    case needPairing(NeedPairing)
    case authRequired(AuthRequired)
    case pairChallenge(PairChallenge)
    case paired(Paired)
    case pairingFailed(PairingFailed)
    case authChallenge(AuthChallenge)
    case unauthorized(Unauthorized)
    case authorized(Authorized)
    case secure(SecureEnvelope)
    case error(ErrorReply)
    case layout(Layout)
    case pressResult(PressResult)
    case apps(Apps)
    case volume(Volume)
    case keypadResult(KeypadResult)
    case displays(Displays)
    case screenStarted(ScreenStarted)
    case screenDenied(ScreenDenied)
    case screenPending(ScreenPending)
    case screenStopped(ScreenStopped)
    case typed(Typed)
    case recordState(RecordState)
    case recordDenied(RecordDenied)
    case recordings(Recordings)
    case screenPermission(ScreenPermission)
    case editPermission(EditPermission)
    case recordingChunk(RecordingChunk)
    case mediaState(MediaState)
    case profiles(Profiles)
    case profileImported(ProfileImported)
    case clipboardResult(ClipboardResult)
    case clipboardOffer(ClipboardOffer)
    case iconStored(IconStored)
    case icon(Icon)
    case keyState(KeyState)

    /// The fields of the message.
    public var body: any MessageBody {
        switch self {
        case .needPairing(let m): m
        case .authRequired(let m): m
        case .pairChallenge(let m): m
        case .paired(let m): m
        case .pairingFailed(let m): m
        case .authChallenge(let m): m
        case .unauthorized(let m): m
        case .authorized(let m): m
        case .secure(let m): m
        case .error(let m): m
        case .layout(let m): m
        case .pressResult(let m): m
        case .apps(let m): m
        case .volume(let m): m
        case .keypadResult(let m): m
        case .displays(let m): m
        case .screenStarted(let m): m
        case .screenDenied(let m): m
        case .screenPending(let m): m
        case .screenStopped(let m): m
        case .typed(let m): m
        case .recordState(let m): m
        case .recordDenied(let m): m
        case .recordings(let m): m
        case .screenPermission(let m): m
        case .editPermission(let m): m
        case .recordingChunk(let m): m
        case .mediaState(let m): m
        case .profiles(let m): m
        case .profileImported(let m): m
        case .clipboardResult(let m): m
        case .clipboardOffer(let m): m
        case .iconStored(let m): m
        case .icon(let m): m
        case .keyState(let m): m
        }
    }

    /// For each host `type`, how to read it.
    public static let readers: [String: @Sendable (any Decoder) throws -> HostMessage] = [
        NeedPairing.type: { .needPairing(try NeedPairing(from: $0)) },
        AuthRequired.type: { .authRequired(try AuthRequired(from: $0)) },
        PairChallenge.type: { .pairChallenge(try PairChallenge(from: $0)) },
        Paired.type: { .paired(try Paired(from: $0)) },
        PairingFailed.type: { .pairingFailed(try PairingFailed(from: $0)) },
        AuthChallenge.type: { .authChallenge(try AuthChallenge(from: $0)) },
        Unauthorized.type: { .unauthorized(try Unauthorized(from: $0)) },
        Authorized.type: { .authorized(try Authorized(from: $0)) },
        SecureEnvelope.type: { .secure(try SecureEnvelope(from: $0)) },
        ErrorReply.type: { .error(try ErrorReply(from: $0)) },
        Layout.type: { .layout(try Layout(from: $0)) },
        PressResult.type: { .pressResult(try PressResult(from: $0)) },
        Apps.type: { .apps(try Apps(from: $0)) },
        Volume.type: { .volume(try Volume(from: $0)) },
        KeypadResult.type: { .keypadResult(try KeypadResult(from: $0)) },
        Displays.type: { .displays(try Displays(from: $0)) },
        ScreenStarted.type: { .screenStarted(try ScreenStarted(from: $0)) },
        ScreenDenied.type: { .screenDenied(try ScreenDenied(from: $0)) },
        ScreenPending.type: { .screenPending(try ScreenPending(from: $0)) },
        ScreenStopped.type: { .screenStopped(try ScreenStopped(from: $0)) },
        Typed.type: { .typed(try Typed(from: $0)) },
        RecordState.type: { .recordState(try RecordState(from: $0)) },
        RecordDenied.type: { .recordDenied(try RecordDenied(from: $0)) },
        Recordings.type: { .recordings(try Recordings(from: $0)) },
        ScreenPermission.type: { .screenPermission(try ScreenPermission(from: $0)) },
        EditPermission.type: { .editPermission(try EditPermission(from: $0)) },
        RecordingChunk.type: { .recordingChunk(try RecordingChunk(from: $0)) },
        MediaState.type: { .mediaState(try MediaState(from: $0)) },
        Profiles.type: { .profiles(try Profiles(from: $0)) },
        ProfileImported.type: { .profileImported(try ProfileImported(from: $0)) },
        ClipboardResult.type: { .clipboardResult(try ClipboardResult(from: $0)) },
        ClipboardOffer.type: { .clipboardOffer(try ClipboardOffer(from: $0)) },
        IconStored.type: { .iconStored(try IconStored(from: $0)) },
        Icon.type: { .icon(try Icon(from: $0)) },
        KeyState.type: { .keyState(try KeyState(from: $0)) },
    ]
}
