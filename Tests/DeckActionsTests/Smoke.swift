import DeckDesktop
import Testing

@testable import DeckActions

@Test func resultsCompare() { #expect(ActionResult.ok != ActionResult.failed("x")) }
