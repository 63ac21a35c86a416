import Foundation
import Glibc

/// Bounded transfers through a pipe whose other end another process holds (a compositor's clipboard hands one
/// over D-Bus): reads keep at most `keep` bytes and stop counting at `count`, writes and reads give up when the
/// other side stays silent for `patience` seconds. Both block their caller: run them on a thread or queue of
/// their own, never on an actor or the cooperative pool.
enum DescriptorTransfer {
    /// What a read got.
    enum ReadOutcome: Equatable, Sendable {
        /// Everything up to the end of the data, within the limit.
        case received(Data)
        /// More than the limit: the bytes counted (the real size, or `count` when it stopped counting there).
        case tooLarge(size: Int)
        /// The other side sent nothing for `patience` seconds before the end.
        case stalled
        /// `cancel` became readable.
        case cancelled
        /// The read failed (errno's text).
        case failed(String)
    }

    static let chunk = 64 * 1024

    /// Reads `fd` to its end; keeps at most `keep` bytes, counts (and drops) up to `count` bytes past that.
    /// Returns early when `cancel` (a pipe's read end) becomes readable. Does not close `fd`.
    static func read(_ fd: Int32, keep: Int, count: Int, patience: Double, cancel: Int32? = nil) -> ReadOutcome {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var kept = Data()
        var size = 0
        var buffer = [UInt8](repeating: 0, count: chunk)
        while true {
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            if let cancel { fds.append(pollfd(fd: cancel, events: Int16(POLLIN), revents: 0)) }
            let ready = poll(&fds, nfds_t(fds.count), Int32(patience * 1000))
            if ready < 0, errno == EINTR { continue }
            if ready < 0 { return .failed(String(cString: strerror(errno))) }
            if fds.count > 1, fds[1].revents != 0 { return .cancelled }
            if ready == 0 { return .stalled }
            let got = Glibc.read(fd, &buffer, buffer.count)
            if got < 0, errno == EINTR || errno == EAGAIN { continue }
            if got < 0 { return .failed(String(cString: strerror(errno))) }
            if got == 0 { return size > keep ? .tooLarge(size: size) : .received(kept) }
            size += got
            if size <= keep {
                kept.append(contentsOf: buffer[0..<got])
            } else {
                kept = Data()  // past the limit only counted
                if size >= count { return .tooLarge(size: size) }
            }
        }
    }

    /// Writes all of `data` into `fd` (a pipe's write end); false when the reader went away, failed, or took
    /// nothing for `patience` seconds. Does not close `fd`. SIGPIPE (the reader closed its end) is held back on
    /// this thread and consumed, so it never reaches the process.
    static func write(_ data: Data, to fd: Int32, patience: Double) -> Bool {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        var broken = false
        defer {
            if broken {
                var none = timespec(tv_sec: 0, tv_nsec: 0)
                while sigtimedwait(&pipeSignal, nil, &none) == SIGPIPE {}
            }
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        return data.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                var fds = [pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)]
                let ready = poll(&fds, 1, Int32(patience * 1000))
                if ready < 0, errno == EINTR { continue }
                guard ready > 0 else { return false }
                let wrote = Glibc.write(fd, raw.baseAddress! + offset, min(chunk, raw.count - offset))
                if wrote < 0, errno == EINTR || errno == EAGAIN { continue }
                if wrote < 0 {
                    broken = errno == EPIPE
                    return false
                }
                offset += wrote
            }
            return true
        }
    }
}

/// A one-byte wake-up for a blocking `DescriptorTransfer.read`: `fire` makes `descriptor` readable. Both ends
/// close with the value.
final class CancelPipe: @unchecked Sendable {
    private let ends: (read: Int32, write: Int32)

    init() {
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
        }
        ends = (fds[0], fds[1])
    }

    deinit {
        if ends.read >= 0 { close(ends.read) }
        if ends.write >= 0 { close(ends.write) }
    }

    /// The end to poll.
    var descriptor: Int32 { ends.read }

    func fire() {
        var byte: UInt8 = 1
        _ = Glibc.write(ends.write, &byte, 1)
    }

    /// Whether `fire` was called (the byte is left in the pipe).
    var hasFired: Bool {
        var ready = pollfd(fd: ends.read, events: Int16(POLLIN), revents: 0)
        return poll(&ready, 1, 0) > 0
    }
}
