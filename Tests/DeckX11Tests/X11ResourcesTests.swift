import Testing

@testable import DeckX11

/// The scale X11 thumbnails use: Xft.dpi from the resource database, 96 dpi being 1.
@Suite struct X11ResourcesTests {
    @Test(
        arguments: [
            (nil, 1.0), ("Xft.dpi:\t144\nXft.antialias:\t1\n", 1.5), ("*foreground: black\nXft.dpi: 96", 1.0),
            ("Xft.dpi:\tlots\n", 1.0), ("Xft.dpi:\t192", 2.0),
        ] as [(String?, Double)])
    func theScaleComesFromXftDpi(resources: String?, scale: Double) {
        #expect(X11Resources.scale(in: resources) == scale)
    }
}
