import DeckDesktop
import DeckSound
import DeckTesting
import Testing

/// The routing against an in-memory server: what moves where, in which order, what the record says at each
/// step, and that the speakers' volume and mute are never touched.
private func routed(
    speakers: [String] = ["speakers", "headphones"], muted: Set<String> = []
) throws -> (FakeSoundServer, SoundRouter, @Sendable () -> RoutingRecord?) {
    let server = FakeSoundServer(speakers: speakers, muted: muted)
    let (store, saved) = RoutingRecordStore.memory()
    return (server, SoundRouter(server: server, store: store), saved)
}

@Test func routeLoadsOurSinkMakesItDefaultAndMovesEveryStream() throws {
    let (server, router, saved) = try routed()
    let music = server.play(on: "speakers")
    let call = server.play(on: "headphones")
    let monitor = try router.route()
    #expect(monitor == "touchdeck_sound.monitor")
    #expect(server.defaultName == SoundRouter.sinkName)
    #expect(server.sinkOf(music) == SoundRouter.sinkName && server.sinkOf(call) == SoundRouter.sinkName)
    #expect(saved()?.previousDefault == "speakers")
    #expect(saved()?.origins == [music: "speakers", call: "headphones"])
    #expect(server.commands.first == "load touchdeck_sound")
}

@Test func restoreUndoesInReverseOrderAndLeavesNoRecord() throws {
    let (server, router, saved) = try routed()
    let music = server.play(on: "speakers")
    let call = server.play(on: "headphones")
    _ = try router.route()
    let before = server.commands.count
    try router.restore()
    let undo = Array(server.commands[before...])
    #expect(undo.count == 4)
    #expect(undo.prefix(2).allSatisfy { $0.hasPrefix("move") })
    #expect(undo[2] == "default speakers")
    #expect(undo[3].hasPrefix("unload"))
    #expect(server.sinkOf(music) == "speakers" && server.sinkOf(call) == "headphones")
    #expect(server.defaultName == "speakers")
    #expect(!server.sinkList.contains { $0.sink.name == SoundRouter.sinkName })
    #expect(saved() == nil && router.record == nil)
    try router.restore()  // idempotent
    #expect(server.commands.count == before + 4)
}

@Test func theSpeakersVolumeAndMuteAreNeverTouched() throws {
    let (server, router, _) = try routed(muted: ["speakers"])
    server.play(on: "speakers")
    let before = server.sinkList
    _ = try router.route()
    try router.restore()
    #expect(server.sinkList == before)
    #expect(server.sinkList.first { $0.sink.name == "speakers" }?.muted == true)
}

@Test func aStreamThatStartsWhileRoutedMovesOntoOurSinkAndBackToTheDefault() throws {
    let (server, router, _) = try routed()
    _ = try router.route()
    let late = server.play(on: "speakers")  // a remembered device (module-stream-restore) put it there
    try router.follow()
    #expect(server.sinkOf(late) == SoundRouter.sinkName)
    try router.restore()
    #expect(server.sinkOf(late) == "speakers")
}

@Test func anotherDefaultWhileRoutedBecomesTheSinkToRestoreTo() throws {
    var heard: [String?] = []
    let server = FakeSoundServer(speakers: ["speakers"])
    let (store, saved) = RoutingRecordStore.memory()
    let router = SoundRouter(server: server, store: store) { heard.append($0) }
    let music = server.play(on: "speakers")
    _ = try router.route()
    server.plug("usb")
    server.userPicksDefault("usb")
    try router.follow()
    #expect(server.defaultName == SoundRouter.sinkName)
    #expect(saved()?.previousDefault == "usb")
    try router.restore()
    #expect(server.defaultName == "usb")
    #expect(server.sinkOf(music) == "usb")
    #expect(heard == ["speakers", "usb", nil])
}

@Test func aCrashLeavesARecordTheNextRouterUndoes() throws {
    let server = FakeSoundServer(speakers: ["speakers", "headphones"])
    let (store, saved) = RoutingRecordStore.memory()
    let music = server.play(on: "headphones")
    _ = try SoundRouter(server: server, store: store).route()  // then the host is killed
    #expect(saved() != nil)
    let next = SoundRouter(server: server, store: store)
    try next.recover()
    #expect(server.defaultName == "speakers")
    #expect(server.sinkOf(music) == "headphones")
    #expect(!server.sinkList.contains { $0.sink.name == SoundRouter.sinkName })
    #expect(saved() == nil)
}

@Test func ourSinkLeftWithoutARecordIsStillUnloaded() throws {
    let server = FakeSoundServer(speakers: ["speakers"])
    _ = try server.loadNullSink(name: SoundRouter.sinkName, description: "TouchDeck")
    try server.setDefaultSink(SoundRouter.sinkName)
    let (store, _) = RoutingRecordStore.memory()
    try SoundRouter(server: server, store: store).recover()
    #expect(server.defaultName == "speakers")
    #expect(server.sinkList.map(\.sink.name) == ["speakers"])
}

@Test func aServerThatFailsHalfWayKeepsTheRecordUntilTheUndoSucceeds() throws {
    let (server, router, saved) = try routed()
    let music = server.play(on: "speakers")
    _ = try router.route()
    server.failing = ["unload"]
    #expect(throws: SoundError.self) { try router.restore() }
    #expect(saved() != nil, "the record stays until the routing is really undone")
    server.failing = []
    try router.restore()
    #expect(saved() == nil && server.sinkOf(music) == "speakers" && server.defaultName == "speakers")
}

/// An app that quits while the restore runs (a test's player stopped right as its viewer closed): its stream
/// was listed, then was gone when moved. The rest of the undo still happens.
@Test func aStreamWhoseAppQuitsDuringTheRestoreDoesNotStopTheUndo() throws {
    let (server, router, saved) = try routed()
    let tone = server.play(on: "speakers")
    let music = server.play(on: "headphones")
    _ = try router.route()
    server.quitsBeforeMoving = [tone]
    try router.restore()
    #expect(saved() == nil)
    #expect(server.sinkOf(music) == "headphones" && server.defaultName == "speakers")
    #expect(!server.sinkList.contains { $0.sink.name == SoundRouter.sinkName })
}

@Test func aFailedLoadChangesNothingAndLeavesNoRecord() throws {
    let (server, router, saved) = try routed()
    server.failing = ["load"]
    #expect(throws: SoundError.self) { try router.route() }
    #expect(server.defaultName == "speakers" && saved() == nil && server.commands.isEmpty)
}

@Test func aFailedDefaultAfterTheLoadIsUndone() throws {
    let (server, router, saved) = try routed()
    server.failing = ["default"]
    #expect(throws: SoundError.self) { try router.route() }
    #expect(!server.sinkList.contains { $0.sink.name == SoundRouter.sinkName })
    #expect(saved() == nil)
}

@Test func withoutADefaultSinkThereIsNothingToRouteFrom() throws {
    let (server, router, _) = try routed(speakers: [])
    #expect(throws: SoundError.noDefaultSink) { try router.route() }
    #expect(server.commands.isEmpty)
}
