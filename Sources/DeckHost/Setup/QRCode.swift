import Foundation

/// QR codes of the host's address, drawn by the `qrencode` tool (Debian package qrencode).
///
/// A missing tool is not an error worth stopping for: the address is always printed as text too.
public enum QRCode {
    /// An SVG image of `text`, or nil when qrencode is not installed.
    public static func svg(_ text: String) -> String? {
        run(["-t", "SVG", "--rle", "-m", "2", "-s", "6", "-o", "-", text])
    }

    /// A QR code made of Unicode half blocks for a terminal, or nil when qrencode is not installed.
    public static func terminal(_ text: String) -> String? {
        run(["-t", "UTF8", "-m", "2", "-o", "-", text])
    }

    /// A PNG image of `text` (8 px a module, a 2-module margin), or nil when qrencode is not installed.
    public static func png(_ text: String) -> Data? {
        runData(["-t", "PNG", "-m", "2", "-s", "8", "-o", "-", text])
    }

    private static func run(_ arguments: [String]) -> String? {
        runData(arguments).map { String(decoding: $0, as: UTF8.self) }
    }

    private static func runData(_ arguments: [String]) -> Data? {
        guard
            let tool = ["/usr/bin/qrencode", "/usr/local/bin/qrencode"].first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return data
    }
}
