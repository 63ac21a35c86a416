/// Small pictures of monitors for the device's monitor picker (`listDisplays`, DESIGN.md#viewing).
public enum Thumbnail {
    /// The long side of a thumbnail, in pixels (seed).
    public static let longSide = 320

    /// The size a `width`×`height` picture is shrunk to: its long side `longSide`, the aspect kept (the short
    /// side rounded, at least 1). A picture already that small keeps its size: enlarging adds nothing.
    public static func size(width: Int, height: Int, longSide: Int = Thumbnail.longSide) -> (width: Int, height: Int) {
        let long = max(width, height)
        guard long > longSide else { return (width, height) }
        func scaled(_ side: Int) -> Int { max(1, (side * longSide + long / 2) / long) }
        return width >= height ? (longSide, scaled(height)) : (scaled(width), longSide)
    }

    /// `image` shrunk to `size` (see `size(width:height:)`), each output pixel the mean of the source pixels
    /// its box covers, so thin lines fade instead of vanishing and flat areas keep their exact colour.
    /// The result is tightly packed BGRx.
    public static func shrink(_ image: ScreenImage, longSide: Int = Thumbnail.longSide) -> ScreenImage {
        let (width, height) = size(width: image.width, height: image.height, longSide: longSide)
        var output = [UInt8](repeating: 255, count: width * height * 4)
        image.pixels.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                for row in 0..<height {
                    shrinkRow(row, of: image, source: source, into: target, width: width, height: height)
                }
            }
        }
        return ScreenImage(width: width, height: height, stride: width * 4, format: .bgrx, pixels: output)
    }

    /// Fills output row `row` from the source rows its boxes cover.
    private static func shrinkRow(
        _ row: Int, of image: ScreenImage, source: UnsafeBufferPointer<UInt8>,
        into target: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int
    ) {
        let top = row * image.height / height
        let bottom = max(top + 1, (row + 1) * image.height / height)
        var sums = [Int](repeating: 0, count: width * 3)
        var counts = [Int](repeating: 0, count: width)
        for sourceRow in top..<bottom {
            let rowStart = sourceRow * image.stride
            for column in 0..<width {
                let left = column * image.width / width
                let right = max(left + 1, (column + 1) * image.width / width)
                for x in left..<right {
                    let pixel = rowStart + x * 4
                    sums[column * 3] += Int(source[pixel])
                    sums[column * 3 + 1] += Int(source[pixel + 1])
                    sums[column * 3 + 2] += Int(source[pixel + 2])
                }
                counts[column] += right - left
            }
        }
        let outStart = row * width * 4
        for column in 0..<width {
            let count = counts[column]
            for channel in 0..<3 {
                target[outStart + column * 4 + channel] = UInt8((sums[column * 3 + channel] + count / 2) / count)
            }
        }
    }
}
