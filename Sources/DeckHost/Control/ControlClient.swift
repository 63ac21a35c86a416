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
        /// The socket's directory or the process behind it is not this user's: the reason, for the user.
        case untrusted(String)

        public var description: String {
            switch self {
            case .notRunning(let path):
                "touchdeck is not running (no daemon at \(path)); start it with `touchdeck serve`"
            case .badAnswer: "the daemon gave no readable answer"
            case .untrusted(let reason): reason
            }
        }
    }

    /// Sends `request` to the daemon that uses `configDirectory` and returns its answer. Nothing is sent to, or
    /// believed from, a socket in a directory others could write or a process of another user.
    public static func send(
        _ request: ControlRequest, configDirectory: URL,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> ControlResponse {
        let path = ControlSocket.path(configDirectory: configDirectory, environment: environment)
        if let folder = ControlSocket.privateDirectory(configDirectory: configDirectory, environment: environment) {
            do {
                try PrivateDirectory.check(folder)
            } catch PrivateDirectory.Untrusted.unusable(_, ENOENT) {
                throw Failure.notRunning(path)
            } catch {
                throw Failure.untrusted("\(error)")
            }
        }
        let fd = ControlSocket.connect(path)
        guard fd >= 0 else { throw Failure.notRunning(path) }
        defer { close(fd) }
        if let uid = ControlSocket.peerUID(fd), uid != getuid() {
            throw Failure.untrusted("refusing the control socket \(path): it is served by uid \(uid), not by you")
        }
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
