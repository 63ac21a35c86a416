import DeckKit
import Foundation
import Testing

/// Every message type PROTOCOL.md names, by direction. Written out by hand so a type that loses its
/// fixture or its reader fails here.
let deviceTypes = [
    "hello", "pairStart", "pairConfirm", "authStart", "authFinish", "secure",
    "setButton", "clearButton", "moveButton", "setGrid", "press", "pressDown", "pressUp", "listApps", "setVolume",
    "toggleMute", "keypad",
    "listDisplays", "startScreen", "screenOptions", "requestKeyframe", "pointer", "stopScreen",
    "typeText", "pressKey", "recordStart", "recordPause", "recordResume", "recordStop", "listRecordings",
    "fetchRecording", "deleteRecording", "switchProfile", "followProfile", "addProfile", "deleteProfile",
    "renameProfile", "importProfile", "setProfileApps", "undo",
    "fetchRecording", "deleteRecording", "clipboardSet", "storeIcon", "getIcon", "setSlider",
]
let hostTypes = [
    "needPairing", "authRequired", "pairChallenge", "paired", "pairingFailed", "authChallenge",
    "unauthorized", "authorized", "secure", "error", "layout", "pressResult", "apps", "volume",
    "keypadResult", "displays", "screenStarted", "screenDenied", "screenPending", "screenStopped", "typed",
    "recordState",
    "recordDenied", "recordings", "recordingChunk", "screenPermission", "editPermission", "mediaState", "profiles",
    "profileImported",
    "recordDenied", "recordings", "recordingChunk", "screenPermission", "editPermission", "mediaState",
    "clipboardResult", "clipboardOffer", "iconStored", "icon", "keyState",
]

@Test func everyProtocolMessageHasAFixtureAndAReader() throws {
    let files = try FileManager.default.contentsOfDirectory(
        atPath: Fixtures.root.appendingPathComponent("messages").path)
    let fixtureTypes = Set(files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) })
    #expect(fixtureTypes == Set(deviceTypes + hostTypes))
    #expect(Set(DeviceMessage.readers.keys) == Set(deviceTypes))
    #expect(Set(HostMessage.readers.keys) == Set(hostTypes))
}

@Test(arguments: deviceTypes)
func deviceFixtureRoundTripsToIdenticalBytes(type: String) throws {
    let bytes = try Fixtures.data("messages/\(type).json")
    let message = try DeviceMessage.decode(bytes)
    #expect(message.type == type)
    #expect(String(decoding: message.encode(), as: UTF8.self) == String(decoding: bytes, as: UTF8.self))
}

@Test(arguments: hostTypes)
func hostFixtureRoundTripsToIdenticalBytes(type: String) throws {
    let bytes = try Fixtures.data("messages/\(type).json")
    let message = try HostMessage.decode(bytes)
    #expect(message.type == type)
    #expect(String(decoding: message.encode(), as: UTF8.self) == String(decoding: bytes, as: UTF8.self))
}

@Test func fixtureFieldsLandInTheRightProperties() throws {
    let start = try DeviceMessage.decode(Fixtures.data("messages/startScreen.json"))
    #expect(start == .startScreen(.init(displayId: 66, maxSide: 2388, fps: 60, audio: true)))
    let move = try DeviceMessage.decode(Fixtures.data("messages/moveButton.json"))
    #expect(move == .moveButton(.init(fromPage: 0, fromIndex: 3, toPage: 1, toIndex: 0)))
    let failed = try HostMessage.decode(Fixtures.data("messages/pairingFailed.json"))
    #expect(failed == .pairingFailed(.init(reason: .noPin, remaining: 0, retryAfter: 30)))
    let layout = try HostMessage.decode(Fixtures.data("messages/layout.json"))
    guard case .layout(let body) = layout else {
        Issue.record("layout fixture decoded as \(layout.type)")
        return
    }
    #expect(body.layout.button(page: 0, index: 0) == Button(label: "Blog", kind: .command("blogrun")))
    #expect(body.layout.button(page: 0, index: 5) == Button(label: "Home", kind: .terminal(directory: "")))
    #expect(body.layout.button(page: 0, index: 1) == Button(label: "Music", kind: .media(.playPause)))
    #expect(body.layout.button(page: 0, index: 4) == Button(label: "Mic", kind: .micMute))
}

@Test func theProfileFixturesCarryAProfileKeyAndAFileThisHostReads() throws {
    let layout = try HostMessage.decode(Fixtures.data("messages/layout.json"))
    #expect((layout.body as? HostMessage.Layout)?.profile == "Default")
    guard case .importProfile(let request) = try DeviceMessage.decode(Fixtures.data("messages/importProfile.json"))
    else {
        Issue.record("importProfile did not decode as itself")
        return
    }
    let file = try ProfileFile.read(Data(request.file.utf8))
    #expect(file.profile.name == "Phone")
    #expect(file.profile.layout.button(page: 0, index: 0) == Button(label: "Big deck", kind: .profile("Default")))
    let shown = try HostMessage.decode(Fixtures.data("messages/profiles.json"))
    #expect(
        shown
            == .profiles(
                .init(
                    names: ["Default", "Phone", "Phone (2)"], current: "Default", shown: "Phone", follows: false,
                    apps: ["Phone (2)": ["org.gnome.TextEditor.desktop", "gedit"]], focusProfile: "Phone (2)")))
}

@Test func pointerEncodesFlatWithSortedKeys() {
    let pointer = DeviceMessage.pointer(.init(kind: .click, x: 0.25, y: 0.75))
    let text = String(decoding: pointer.encode(), as: UTF8.self)
    #expect(text == #"{"dx":0,"dy":0,"kind":"click","type":"pointer","x":0.25,"y":0.75}"#)
}

@Test func slashesAndNonASCIIAreNotEscaped() {
    let typed = DeviceMessage.typeText(.init(text: "a/b 세계"))
    #expect(String(decoding: typed.encode(), as: UTF8.self) == #"{"enter":false,"text":"a/b 세계","type":"typeText"}"#)
}

/// Asking on the computer (`rules/asking.json`, which the JS and Python tests read too): each message decodes to
/// the fields it names and encodes back to the same JSON.
@Test func askingMessagesRoundTrip() throws {
    let rules = try #require(try Fixtures.json("rules/asking.json") as? [String: Any])
    let answers = try #require(rules["answers"] as? [String: Any])
    func bytes(_ object: Any?) throws -> Data {
        try JSONSerialization.data(withJSONObject: try #require(object), options: [.sortedKeys])
    }
    func same(_ encoded: Data, _ object: Any?) throws -> Bool {
        let read = try JSONSerialization.jsonObject(with: encoded) as? NSDictionary
        return read == (object as? NSDictionary)
    }
    let ask = try DeviceMessage.decode(try bytes(rules["ask"]))
    #expect(ask == .startScreen(.init(displayId: 0, maxSide: 2388, fps: 60, audio: false, ask: true)))
    #expect(try same(ask.encode(), rules["ask"]))
    let expected: [String: HostMessage] = [
        "once": .screenPermission(.init(allowed: true, once: true)),
        "always": .screenPermission(.init(allowed: true)),
        "deny": .screenDenied(.init(reason: .notAllowed, asked: .denied)),
        "timeout": .screenDenied(.init(reason: .notAllowed, asked: .timedOut)),
        "unavailable": .screenDenied(.init(reason: .notAllowed, asked: .unavailable)),
    ]
    let asking = try HostMessage.decode(try bytes(rules["asking"]))
    #expect(asking == .screenPending(.init(reason: .asking)))
    #expect(try same(asking.encode(), rules["asking"]))
    #expect(Set(answers.keys) == Set(expected.keys))
    for (name, message) in expected {
        #expect(try HostMessage.decode(try bytes(answers[name])) == message, "\(name)")
        #expect(try same(message.encode(), answers[name]), "\(name)")
    }
}

/// Asking to paste (`rules/clipboard-asking.json`, which the JS and Python tests read too), as the screen's asking.
@Test func clipboardAskingMessagesRoundTrip() throws {
    let rules = try #require(try Fixtures.json("rules/clipboard-asking.json") as? [String: Any])
    let answers = try #require(rules["answers"] as? [String: Any])
    func bytes(_ object: Any?) throws -> Data {
        try JSONSerialization.data(withJSONObject: try #require(object), options: [.sortedKeys])
    }
    func same(_ encoded: Data, _ object: Any?) throws -> Bool {
        let read = try JSONSerialization.jsonObject(with: encoded) as? NSDictionary
        return read == (object as? NSDictionary)
    }
    let ask = try DeviceMessage.decode(try bytes(rules["ask"]))
    #expect(ask == .clipboardSet(.init(kind: .text, data: Data("asked".utf8), paste: false, ask: true)))
    #expect(try same(ask.encode(), rules["ask"]))
    let reason = try #require((rules["refused"] as? [String: Any])?["reason"] as? String)
    #expect(reason.hasSuffix(#"touchdeck devices allow-clipboard "Asking tablet" on"#))
    let refused = HostMessage.clipboardResult(.init(ok: false, reason: reason, notAllowed: true))
    #expect(try HostMessage.decode(try bytes(rules["refused"])) == refused)
    #expect(try same(refused.encode(), rules["refused"]))
    let expected: [String: HostMessage] = [
        "once": .clipboardResult(.init(ok: true)),
        "always": .clipboardResult(.init(ok: true)),
        "deny": .clipboardResult(.init(ok: false, reason: reason, notAllowed: true, asked: .denied)),
        "timeout": .clipboardResult(.init(ok: false, reason: reason, notAllowed: true, asked: .timedOut)),
        "unavailable": .clipboardResult(.init(ok: false, reason: reason, notAllowed: true, asked: .unavailable)),
    ]
    #expect(Set(answers.keys) == Set(expected.keys))
    for (name, message) in expected {
        #expect(try HostMessage.decode(try bytes(answers[name])) == message, "\(name)")
        #expect(try same(message.encode(), answers[name]), "\(name)")
    }
}
