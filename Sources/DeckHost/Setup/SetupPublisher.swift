import DeckTransport
import Foundation

/// Keeps the setup routes current for the transport thread: they are rendered (QR code included) on the
/// publisher's own queue, once at start and again only when this computer's addresses change, so a request
/// never waits for `qrencode`.
///
/// `@unchecked Sendable`: `current` and `timer` are only touched under `lock`.
public final class SetupPublisher: @unchecked Sendable {
    private let lock = NSLock()
    private var current: SetupRoutes?
    private var timer: DispatchSourceTimer?
    private let queue = DispatchQueue(label: "touchdeck.setup", qos: .utility)
    private let addresses: @Sendable () -> [String]
    private let render: @Sendable ([String]) -> SetupRoutes

    /// `addresses` lists what the page links to now; `render` makes the routes for a list of them.
    public init(
        addresses: @escaping @Sendable () -> [String], render: @escaping @Sendable ([String]) -> SetupRoutes
    ) {
        self.addresses = addresses
        self.render = render
    }

    deinit { timer?.cancel() }

    /// The answer for a request from the routes rendered last; nil before the first rendering.
    public func respond(to request: HTTPRequest) -> HTTPResponse? {
        lock.withLock { current }?.respond(to: request)
    }

    /// Renders the routes now, on the caller's thread, then looks at the addresses every `interval` seconds.
    public func start(interval: TimeInterval = 10) {
        refresh()
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [weak self] in self?.refresh() }
        lock.withLock { self.timer = timer }
        timer.resume()
    }

    /// Stops looking at the addresses.
    public func stop() {
        lock.withLock { timer }?.cancel()
    }

    /// Renders again when the addresses differ from those of the routes in use; otherwise does nothing.
    func refresh() {
        let now = addresses()
        guard lock.withLock({ current?.addresses }) != now else { return }
        let routes = render(now)
        lock.withLock { current = routes }
    }
}
