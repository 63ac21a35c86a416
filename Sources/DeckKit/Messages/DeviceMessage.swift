/// Every text message a device sends to the host (PROTOCOL §2–§6).
public enum DeviceMessage: WireMessage {
    case hello(Hello)
    case pairStart(PairStart)
    case pairConfirm(PairConfirm)
    case authStart(AuthStart)
    case authFinish(AuthFinish)
    case secure(SecureEnvelope)
    case setButton(SetButton)
    case clearButton(ClearButton)
    case setGrid(SetGrid)
    case moveButton(MoveButton)
    case press(Press)
    case pressDown(PressDown)
    case pressUp(PressUp)
    case listApps(ListApps)
    case setVolume(SetVolume)
    case toggleMute(ToggleMute)
    case keypad(Keypad)
    case listDisplays(ListDisplays)
    case startScreen(StartScreen)
    case screenOptions(ScreenOptions)
    case requestKeyframe(RequestKeyframe)
    case pointer(Pointer)
    case stopScreen(StopScreen)
    case typeText(TypeText)
    case pressKey(PressKey)
    case recordStart(RecordStart)
    case recordPause(RecordPause)
    case recordResume(RecordResume)
    case recordStop(RecordStop)
    case listRecordings(ListRecordings)
    case fetchRecording(FetchRecording)
    case deleteRecording(DeleteRecording)
    case switchProfile(SwitchProfile)
    case followProfile(FollowProfile)
    case addProfile(AddProfile)
    case deleteProfile(DeleteProfile)
    case renameProfile(RenameProfile)
    case importProfile(ImportProfile)
    case setProfileApps(SetProfileApps)
    case undo(Undo)
    case clipboardSet(ClipboardSet)
    case storeIcon(StoreIcon)
    case getIcon(GetIcon)
    case setSlider(SetSlider)

    /// The fields of the message.
    public var body: any MessageBody {
        switch self {
        case .hello(let m): m
        case .pairStart(let m): m
        case .pairConfirm(let m): m
        case .authStart(let m): m
        case .authFinish(let m): m
        case .secure(let m): m
        case .setButton(let m): m
        case .clearButton(let m): m
        case .setGrid(let m): m
        case .moveButton(let m): m
        case .press(let m): m
        case .pressDown(let m): m
        case .pressUp(let m): m
        case .listApps(let m): m
        case .setVolume(let m): m
        case .toggleMute(let m): m
        case .keypad(let m): m
        case .listDisplays(let m): m
        case .startScreen(let m): m
        case .screenOptions(let m): m
        case .requestKeyframe(let m): m
        case .pointer(let m): m
        case .stopScreen(let m): m
        case .typeText(let m): m
        case .pressKey(let m): m
        case .recordStart(let m): m
        case .recordPause(let m): m
        case .recordResume(let m): m
        case .recordStop(let m): m
        case .listRecordings(let m): m
        case .fetchRecording(let m): m
        case .deleteRecording(let m): m
        case .switchProfile(let m): m
        case .followProfile(let m): m
        case .addProfile(let m): m
        case .deleteProfile(let m): m
        case .renameProfile(let m): m
        case .importProfile(let m): m
        case .setProfileApps(let m): m
        case .undo(let m): m
        case .clipboardSet(let m): m
        case .storeIcon(let m): m
        case .getIcon(let m): m
        case .setSlider(let m): m
        }
    }

    /// For each device `type`, how to read it.
    public static let readers: [String: @Sendable (any Decoder) throws -> DeviceMessage] = [
        Hello.type: { .hello(try Hello(from: $0)) },
        PairStart.type: { .pairStart(try PairStart(from: $0)) },
        PairConfirm.type: { .pairConfirm(try PairConfirm(from: $0)) },
        AuthStart.type: { .authStart(try AuthStart(from: $0)) },
        AuthFinish.type: { .authFinish(try AuthFinish(from: $0)) },
        SecureEnvelope.type: { .secure(try SecureEnvelope(from: $0)) },
        SetButton.type: { .setButton(try SetButton(from: $0)) },
        ClearButton.type: { .clearButton(try ClearButton(from: $0)) },
        SetGrid.type: { .setGrid(try SetGrid(from: $0)) },
        MoveButton.type: { .moveButton(try MoveButton(from: $0)) },
        Press.type: { .press(try Press(from: $0)) },
        PressDown.type: { .pressDown(try PressDown(from: $0)) },
        PressUp.type: { .pressUp(try PressUp(from: $0)) },
        ListApps.type: { .listApps(try ListApps(from: $0)) },
        SetVolume.type: { .setVolume(try SetVolume(from: $0)) },
        ToggleMute.type: { .toggleMute(try ToggleMute(from: $0)) },
        Keypad.type: { .keypad(try Keypad(from: $0)) },
        ListDisplays.type: { .listDisplays(try ListDisplays(from: $0)) },
        StartScreen.type: { .startScreen(try StartScreen(from: $0)) },
        ScreenOptions.type: { .screenOptions(try ScreenOptions(from: $0)) },
        RequestKeyframe.type: { .requestKeyframe(try RequestKeyframe(from: $0)) },
        Pointer.type: { .pointer(try Pointer(from: $0)) },
        StopScreen.type: { .stopScreen(try StopScreen(from: $0)) },
        TypeText.type: { .typeText(try TypeText(from: $0)) },
        PressKey.type: { .pressKey(try PressKey(from: $0)) },
        RecordStart.type: { .recordStart(try RecordStart(from: $0)) },
        RecordPause.type: { .recordPause(try RecordPause(from: $0)) },
        RecordResume.type: { .recordResume(try RecordResume(from: $0)) },
        RecordStop.type: { .recordStop(try RecordStop(from: $0)) },
        ListRecordings.type: { .listRecordings(try ListRecordings(from: $0)) },
        FetchRecording.type: { .fetchRecording(try FetchRecording(from: $0)) },
        DeleteRecording.type: { .deleteRecording(try DeleteRecording(from: $0)) },
        SwitchProfile.type: { .switchProfile(try SwitchProfile(from: $0)) },
        FollowProfile.type: { .followProfile(try FollowProfile(from: $0)) },
        AddProfile.type: { .addProfile(try AddProfile(from: $0)) },
        DeleteProfile.type: { .deleteProfile(try DeleteProfile(from: $0)) },
        RenameProfile.type: { .renameProfile(try RenameProfile(from: $0)) },
        ImportProfile.type: { .importProfile(try ImportProfile(from: $0)) },
        SetProfileApps.type: { .setProfileApps(try SetProfileApps(from: $0)) },
        Undo.type: { .undo(try Undo(from: $0)) },
        ClipboardSet.type: { .clipboardSet(try ClipboardSet(from: $0)) },
        StoreIcon.type: { .storeIcon(try StoreIcon(from: $0)) },
        GetIcon.type: { .getIcon(try GetIcon(from: $0)) },
        SetSlider.type: { .setSlider(try SetSlider(from: $0)) },
    ]

    /// Whether the host accepts this message before authorization (hello, pairing, auth).
    public var isHandshake: Bool {
        switch self {
        case .hello, .pairStart, .pairConfirm, .authStart, .authFinish: true
        default: false
        }
    }

    /// The layout edit this message asks for, if it is one.
    public var layoutEdit: (any LayoutEdit)? {
        switch self {
        case .setButton(let m): m
        case .clearButton(let m): m
        case .setGrid(let m): m
        case .moveButton(let m): m
        default: nil
        }
    }
}
