/// A video mode's timings by VESA's Coordinated Video Timings with reduced blanking (version 1), as `cvt -r`
/// computes them: what a new RandR mode of a device's size is given. A virtual or unplugged output never scans
/// them out; they only have to be valid for the driver.
struct CVTMode: Equatable, Sendable {
    var width: Int
    var height: Int
    /// Pixel clock in Hz.
    var dotClock: Int
    var hSyncStart: Int
    var hSyncEnd: Int
    var hTotal: Int
    var vSyncStart: Int
    var vSyncEnd: Int
    var vTotal: Int

    /// Reduced blanking: 160 pixels of horizontal blank (48 front porch, 32 sync), at least 460 µs of vertical blank
    /// with a 3-line front porch and a sync as long as the aspect ratio says; the clock in steps of 0.25 MHz.
    init(width: Int, height: Int, refresh: Double = 60) {
        self.width = width
        self.height = height
        hSyncStart = width + 48
        hSyncEnd = hSyncStart + 32
        hTotal = width + 160
        let sync = Self.verticalSync(width: width, height: height)
        let linePeriod = (1_000_000 / refresh - 460) / Double(height)  // µs
        let blank = max(Int(460 / linePeriod) + 1, 3 + sync + 6)
        vSyncStart = height + 3
        vSyncEnd = vSyncStart + sync
        vTotal = height + blank
        let megahertz = (refresh * Double(vTotal) * Double(hTotal) / 1_000_000 / 0.25).rounded(.down) * 0.25
        dotClock = Int((megahertz * 1_000_000).rounded())
    }

    /// The vertical sync's length in lines, which encodes the aspect ratio in CVT (10 for any other ratio).
    private static func verticalSync(width: Int, height: Int) -> Int {
        let ratios: [(Int, Int, Int)] = [(4, 3, 4), (16, 9, 5), (16, 10, 6), (5, 4, 7), (15, 9, 7)]
        let match = ratios.first { across, down, _ in height * across / down == width }
        return match?.2 ?? 10
    }
}
