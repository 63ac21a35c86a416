import DeckKit
import Testing

@Test func startScreenWithoutNewFieldsDefaults() throws {
    let message = try DeviceMessage.decode(#"{"type":"startScreen","displayId":1,"maxSide":2048}"#)
    #expect(message == .startScreen(.init(displayId: 1, maxSide: 2048, fps: 30, audio: false)))
}

@Test func helloWithoutProtocolIsOne() throws {
    let message = try DeviceMessage.decode(#"{"type":"hello"}"#)
    #expect(message == .hello(.init(protocolVersion: 1, name: "", deviceId: nil)))
}

@Test func authorizedWithoutProtocolIsOne() throws {
    let message = try HostMessage.decode(#"{"type":"authorized","hostName":"studio"}"#)
    #expect(message == .authorized(.init(hostName: "studio", protocolVersion: 1)))
}

@Test func greetingsWithoutProtocolAreOne() throws {
    #expect(
        try HostMessage.decode(#"{"type":"needPairing","hostName":"h"}"#)
            == .needPairing(.init(hostName: "h", protocolVersion: 1)))
    #expect(
        try HostMessage.decode(#"{"type":"authRequired","hostName":"h"}"#)
            == .authRequired(.init(hostName: "h", protocolVersion: 1)))
}

@Test func pointerWithoutScrollIsZero() throws {
    let message = try DeviceMessage.decode(#"{"type":"pointer","kind":"scroll","x":0.5,"y":0.5}"#)
    #expect(message == .pointer(.init(kind: .scroll, x: 0.5, y: 0.5, dx: 0, dy: 0)))
}

@Test func typeTextWithoutEnterDoesNotPressEnter() throws {
    let message = try DeviceMessage.decode(#"{"type":"typeText","text":"hi"}"#)
    #expect(message == .typeText(.init(text: "hi", enter: false)))
}

@Test func pairingFailedWithoutRemainingIsZero() throws {
    let message = try HostMessage.decode(#"{"type":"pairingFailed","reason":"expired"}"#)
    #expect(message == .pairingFailed(.init(reason: .expired, remaining: 0, retryAfter: nil)))
}

@Test func terminalWithoutDirectoryOpensHome() throws {
    let message = try DeviceMessage.decode(
        #"{"type":"setButton","page":0,"index":1,"button":{"label":"T","kind":"terminal"}}"#)
    #expect(message == .setButton(.init(page: 0, index: 1, button: Button(label: "T", kind: .terminal(directory: "")))))
}

@Test func unknownFieldsAreIgnored() throws {
    let message = try DeviceMessage.decode(#"{"type":"press","page":1,"index":2,"future":[1,2]}"#)
    #expect(message == .press(.init(page: 1, index: 2)))
}

@Test func numbersOutsideTheirRangeAreClamped() {
    #expect(DeviceMessage.SetVolume(level: 1.5).level == 1)
    #expect(HostMessage.Volume(available: true, level: .nan, muted: false).level == 0)
    #expect(DeviceMessage.Pointer(kind: .move, x: -0.1, y: 2, dx: .infinity).dx == 0)
}

@Test func screenStartedIsViewOnlyOnlyWhenItSaysWhy() throws {
    let plain = try HostMessage.decode(
        #"{"type":"screenStarted","displayId":1,"width":1280,"height":720,"fps":60,"audio":false}"#)
    #expect(plain == .screenStarted(.init(displayId: 1, width: 1280, height: 720, fps: 60, audio: false)))
    let viewOnly = HostMessage.screenStarted(
        .init(displayId: 1, width: 1280, height: 720, fps: 60, audio: false, viewOnly: "not allowed"))
    let text = try #require(String(data: viewOnly.encode(), encoding: .utf8))
    #expect(text.contains(#""viewOnly":"not allowed""#))
    #expect(try HostMessage.decode(text) == viewOnly)
    let plainText = try #require(String(data: plain.encode(), encoding: .utf8))
    #expect(!plainText.contains("viewOnly"), "a viewing with control carries no viewOnly")
}
