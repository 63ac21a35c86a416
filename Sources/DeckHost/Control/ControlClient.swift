import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The CLI's side of the control socket: one request, one response.
public enum ControlClient {
    /// Why the daemon could not be asked.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// Nothing listens at the socket.
        case notRunning(String)
        /// The daemon closed the connection or answered something unreadable.
        case badAnswer

        public var description: String {
            switch self {
            case .notRunning(let path):
                "touchdeck is not running (no daemon at \(path)); start it with `touchdeck serve`"
            case .badAnswer: "the daemon gave no readable answer"
            }
        }
    }

    /// Sends `request` to the daemon that uses `configDirectory` and returns its answer.
    public static func send(_ request: ControlRequest, configDirectory: URL) throws -> ControlResponse {
        let path = ControlSocket.path(configDirectory: configDirectory)
        let fd = ControlSocket.connect(path)
        guard fd >= 0 else { throw Failure.notRunning(path) }
        defer { close(fd) }
        var line = try JSONEncoder().encode(request)
        line.append(UInt8(ascii: "\n"))
        guard ControlSocket.writeAll(fd, line), let answer = ControlSocket.readLine(fd) else { throw Failure.badAnswer }
        do {
            return try ControlCodec.decoder.decode(ControlResponse.self, from: answer)
        } catch {
            throw Failure.badAnswer
        }
    }
}

enum ControlCodec {
    static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.dateEncodingStrategy = .iso8601
        return e
    }()
    static let decoder: JSONDecoder = {
        let d = JSONDecoder()
        d.dateDecodingStrategy = .iso8601
        return d
    }()
}
