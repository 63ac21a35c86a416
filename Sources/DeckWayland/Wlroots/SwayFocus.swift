import Dispatch
import Foundation
import Glibc

/// The focused window's app id on sway, for the paste chord (a terminal pastes with Ctrl+Shift+V): one `get_tree`
/// over sway's IPC socket (the i3 IPC protocol: "i3-ipc", a 32-bit length and type in the host's byte order, then
/// JSON), asked on a queue of its own with a one-second limit, never on the caller's thread. Empty on another
/// wlroots compositor, without the socket, or when sway does not answer in time.
enum SwayFocus {
    private static let queue = DispatchQueue(label: "touchdeck.sway-ipc")
    private static let getTree: UInt32 = 4

    static func focusedAppID(environment: [String: String] = ProcessInfo.processInfo.environment) async -> [String] {
        await withCheckedContinuation { done in
            queue.async { done.resume(returning: ask(environment: environment)) }
        }
    }

    private static func ask(environment: [String: String]) -> [String] {
        guard let path = socketPath(environment: environment),
            let reply = SwayIPC(path: path).exchange(getTree, Data(), seconds: 1),
            let tree = try? JSONSerialization.jsonObject(with: reply) as? [String: Any]
        else { return [] }
        return focused(in: tree)
    }

    /// `$SWAYSOCK`, else the socket sway makes in the runtime folder (`sway-ipc.UID.PID.sock`) of a sway that runs.
    static func socketPath(environment: [String: String]) -> String? {
        if let path = environment["SWAYSOCK"], !path.isEmpty { return path }
        var folders = [environment["XDG_RUNTIME_DIR"]].compactMap { $0 }
        if let display = environment["WAYLAND_DISPLAY"], display.hasPrefix("/") {
            folders.append((display as NSString).deletingLastPathComponent)
        }
        for folder in folders {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            for name in names.sorted() where name.hasPrefix("sway-ipc.") && name.hasSuffix(".sock") {
                let parts = name.split(separator: ".")
                guard parts.count == 4, let pid = pid_t(parts[2]) else { continue }
                if kill(pid, 0) == 0 || errno == EPERM { return folder + "/" + name }
            }
        }
        return nil
    }

    /// The focused node's app id (a Wayland client) or WM_CLASS instance and class (an Xwayland one).
    static func focused(in node: [String: Any]) -> [String] {
        if node["focused"] as? Bool == true {
            if let app = node["app_id"] as? String, !app.isEmpty { return [app] }
            let properties = node["window_properties"] as? [String: Any] ?? [:]
            return ["instance", "class"].compactMap { properties[$0] as? String }
        }
        for key in ["nodes", "floating_nodes"] {
            for child in node[key] as? [[String: Any]] ?? [] {
                let found = focused(in: child)
                if !found.isEmpty { return found }
            }
        }
        return []
    }
}
