import DeckKit
import Testing

private func deviceError(_ text: String) -> MessageError? {
    do {
        _ = try DeviceMessage.decode(text)
        return nil
    } catch {
        return error
    }
}

@Test func unknownTypeIsTyped() {
    #expect(deviceError(#"{"type":"dance"}"#) == .unknownType("dance"))
    // A host-only type is unknown when a device sends it.
    #expect(deviceError(#"{"type":"layout","pages":[]}"#) == .unknownType("layout"))
}

@Test(arguments: [
    ("not json", "not a JSON object"),
    ("[1,2]", "wrong kind of value for message"),
    (#"{"page":1}"#, "missing field 'type'"),
    (#"{"type":"press","page":1}"#, "missing field 'index'"),
    (#"{"type":"press","page":"1","index":2}"#, "wrong kind of value for 'page'"),
    (#"{"type":"keypad","key":"F13"}"#, "invalid value for 'key'"),
    (
        #"{"type":"setButton","page":0,"index":0,"button":{"label":"x","kind":"rocket"}}"#,
        "invalid value for 'button.kind'"
    ),
    (#"{"type":"setButton","page":0,"index":0,"button":{"label":"x","kind":"app"}}"#, "missing field 'button.appId'"),
])
func malformedInputNamesTheFieldOnly(input: String, expected: String) {
    #expect(deviceError(input) == .malformed(expected))
}

@Test func malformedNeverQuotesTypedText() {
    let error = deviceError(#"{"type":"typeText","text":42,"secret":"hunter2"}"#)
    #expect(error == .malformed("wrong kind of value for 'text'"))
}

@Test func errorsMapToWireCodesInOnePlace() {
    #expect(
        HostMessage.ErrorReply(for: MessageError.unknownType("dance"))
            == .init(code: .unknownType, message: "unknown type dance"))
    #expect(HostMessage.ErrorReply(for: MessageError.malformed("missing field 'x'")).code == .badMessage)
    #expect(HostMessage.ErrorReply(for: LayoutError.indexOutOfRange(index: 12, slots: 12)).code == .badMessage)
    struct Elsewhere: Error {}
    #expect(HostMessage.ErrorReply(for: Elsewhere()).code == .unavailable)
}

@Test func unknownTypeEchoIsBounded() {
    let long = String(repeating: "a", count: 40)
    #expect(MessageError.unknownType(long).wireMessage == "unknown type")
    #expect(MessageError.unknownType("a\"b").wireMessage == "unknown type")
}

@Test func layoutPagesMustHaveTwelveSlots() {
    #expect(throws: MessageError.malformed("invalid value for 'pages'")) {
        try HostMessage.decode(#"{"type":"layout","pages":[[null,null]]}"#)
    }
}
