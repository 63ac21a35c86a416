import DeckDesktop
import Foundation

/// The seam through which an open key reaches the desktop's default handler (DESIGN.md#seams).
public struct Opener: Sendable {
    /// Opens a URL or a file or folder (`~/…` already allowed by `OpenTarget`) with the default handler.
    public var open: @Sendable (_ target: String) async -> ActionResult

    public init(open: @escaping @Sendable (_ target: String) async -> ActionResult) { self.open = open }

    /// `xdg-open TARGET`, detached, in the home folder: the handler the user chose for the scheme or file
    /// type (a portal-only sandbox has `xdg-open` go through the OpenURI portal itself). A file or folder that
    /// does not exist fails by name; xdg-open's own failure within `settle` comes back as its last line.
    public static func live(environment: HostEnvironment = .current, settle: Duration = .seconds(2)) -> Opener {
        Opener { target in
            let resolved = target == "~" || target.hasPrefix("~/") ? environment.home + target.dropFirst() : target
            if resolved.hasPrefix("/"), !FileManager.default.fileExists(atPath: resolved) {
                return .failed("not found: \(target)")
            }
            guard let tool = environment.findExecutable("xdg-open") else {
                return .failed("xdg-open not found (install xdg-utils)")
            }
            let child: ChildExit
            do {
                child = try DetachedProcess.spawn(
                    [tool, resolved], environment: environment.variables, directory: environment.home)
            } catch {
                return .failed("cannot start xdg-open: \(error)")
            }
            switch await child.wait(upTo: settle) {
            case nil, .exited(0): return .ok
            case .exited(let code): return .failed("xdg-open could not open \(target) (exit \(code))")
            case .signaled(let signal): return .failed("xdg-open was killed by signal \(signal)")
            }
        }
    }

    /// Records each target and answers `result`.
    public static func fake(result: ActionResult = .ok, record: @escaping @Sendable (String) -> Void = { _ in })
        -> Opener
    {
        Opener { target in
            record(target)
            return result
        }
    }

    /// Traps if called: for tests that must never open anything.
    public static let unimplemented = Opener { _ in
        preconditionFailure("Opener.open called in a test that does not expect it")
    }
}
