import DeckLog
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon's side of the control socket. Only the daemon's user can connect: the socket is mode 0600
/// and each peer's uid is checked with `SO_PEERCRED` as well.
///
/// `@unchecked Sendable`: `listener` is set once in `start` before the accept thread exists, and `stop`
/// only shuts it down, which wakes the thread out of `accept`.
public final class ControlServer: @unchecked Sendable {
    /// Answers one request.
    public typealias Handler = @Sendable (ControlRequest) async -> ControlResponse

    /// Why the socket could not be opened.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case alreadyRunning(String)
        case socket(String, Int32)

        public var description: String {
            switch self {
            case .alreadyRunning(let path): "another touchdeck daemon already uses \(path)"
            case .socket(let what, let code): "control socket: \(what): \(String(cString: strerror(code)))"
            }
        }
    }

    public let path: String
    /// The private directory the socket lives in when not in the config dir (`ControlSocket.privateDirectory`).
    public let privateDirectory: String?
    private let handler: Handler
    private let log: Logger
    private var listener: Int32 = -1

    public init(path: String, privateDirectory: String? = nil, log: Logger, handler: @escaping Handler) {
        self.path = path
        self.privateDirectory = privateDirectory
        self.log = log
        self.handler = handler
    }

    /// The server for the daemon that uses `configDirectory`: its socket path and private directory.
    public convenience init(configDirectory: URL, log: Logger, handler: @escaping Handler) {
        self.init(
            path: ControlSocket.path(configDirectory: configDirectory),
            privateDirectory: ControlSocket.privateDirectory(configDirectory: configDirectory), log: log,
            handler: handler)
    }

    deinit { stop() }

    /// Binds the socket (removing a stale one) and starts answering on a thread of its own. Refuses a private
    /// directory that is not this user's alone (`PrivateDirectory.Untrusted`).
    public func start() throws {
        if let privateDirectory { try PrivateDirectory.prepare(privateDirectory) }
        if FileManager.default.fileExists(atPath: path) {
            let probe = ControlSocket.connect(path)
            if probe >= 0 {
                close(probe)
                throw Failure.alreadyRunning(path)
            }
            unlink(path)
        }
        let fd = try bindListener()
        listener = fd
        // The thread is handed the descriptor, not the property: `stop` may clear that before the thread runs.
        let thread = Thread { [self] in acceptLoop(fd) }
        thread.name = "touchdeck-control"
        thread.start()
    }

    /// Stops answering and removes the socket file.
    public func stop() {
        guard listener >= 0 else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        unlink(path)
        listener = -1
    }

    private func bindListener() throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure.socket("socket", errno) }
        var addr = ControlSocket.address(path)
        // The umask makes the socket 0600 from its first moment; the chmod is for umasks that are wider.
        let oldMask = umask(0o177)
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        umask(oldMask)
        guard bound == 0, chmod(path, 0o600) == 0, listen(fd, 16) == 0 else {
            let code = errno
            close(fd)
            throw Failure.socket("bind \(path)", code)
        }
        return fd
    }

    private func acceptLoop(_ fd: Int32) {
        while true {
            let client = accept(fd, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                break
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            serve(client)
        }
        close(fd)
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard peerIsOwner(client) else {
            log.warning("control socket: refused a connection from another user")
            return
        }
        guard let line = ControlSocket.readLine(client) else { return }
        let response: ControlResponse
        if let request = try? ControlCodec.decoder.decode(ControlRequest.self, from: line) {
            response = answer(request)
        } else {
            response = .failure("unreadable request")
        }
        var data = (try? ControlCodec.encoder.encode(response)) ?? Data("{\"ok\":false}".utf8)
        data.append(UInt8(ascii: "\n"))
        _ = ControlSocket.writeAll(client, data)
    }

    /// Bridges into the host's actor; this thread is not part of the cooperative pool, so waiting is fine.
    private func answer(_ request: ControlRequest) -> ControlResponse {
        let box = ResponseBox()
        let done = DispatchSemaphore(value: 0)
        let handler = self.handler
        Task {
            box.value = await handler(request)
            done.signal()
        }
        done.wait()
        guard var response = box.value else { return .failure("no answer") }
        if request.command == .status, request.session == true, response.ok {
            // The session is this process's, not the actor's state: checked here, on this thread, so opening a
            // display or running pactl never holds the host's actor.
            response.session = SessionChecks().run()
        }
        return response
    }

    private func peerIsOwner(_ fd: Int32) -> Bool { ControlSocket.peerUID(fd) == getuid() }
}

/// Carries the answer from the task to the waiting thread; the semaphore orders the write before the read.
private final class ResponseBox: @unchecked Sendable {
    var value: ControlResponse?
}
