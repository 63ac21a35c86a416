import Foundation
import Glibc

/// Serves the web app's files below a web root, with the MIME types browsers insist on (ES modules load only
/// as `text/javascript`).
///
/// Only files in `folders` (the app and the modules it imports, not the tests or benchmarks beside them)
/// whose type is known are served, and never a file reached through a link that leads out of those folders.
struct StaticFiles {
    let root: URL
    /// The file answered for `/`, relative to `root`.
    let indexPath: String
    /// The top-level folders of `root` that may be served, e.g. `app` and `core`.
    let folders: [String]

    static let mimeTypes: [String: String] = [
        "html": "text/html; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "svg": "image/svg+xml",
        "png": "image/png",
        "jpg": "image/jpeg",
        "ico": "image/x-icon",
        "json": "application/json",
        "webmanifest": "application/manifest+json",
        "wasm": "application/wasm",
        "txt": "text/plain; charset=utf-8",
        "woff2": "font/woff2",
    ]

    /// The Content-Type for a file name, by its extension.
    static func mimeType(forPath path: String) -> String {
        mimeTypes[(path as NSString).pathExtension.lowercased()] ?? "application/octet-stream"
    }

    /// The file for a request path, or nil when it does not exist, is not part of the app, or leaves the root.
    func response(forPath path: String) -> HTTPResponse? {
        guard let relative = Self.relativePath(path, index: indexPath),
            let first = relative.split(separator: "/").first, folders.contains(String(first))
        else { return nil }
        var url = root.appendingPathComponent(relative)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return nil }
        if isDirectory.boolValue { url.appendPathComponent("index.html") }
        guard Self.mimeTypes[url.pathExtension.lowercased()] != nil, let real = Self.realPath(url.path),
            let folder = Self.realPath(root.appendingPathComponent(String(first)).path),
            real.hasPrefix(folder + "/"), let body = FileManager.default.contents(atPath: real)
        else { return nil }
        return HTTPResponse(contentType: Self.mimeType(forPath: real), body: body)
    }

    /// `path` below the root: `/` becomes the index; `..`, `.`, empty and hidden segments are refused.
    static func relativePath(_ path: String, index: String) -> String? {
        if path == "/" || path.isEmpty { return index }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard path.hasPrefix("/"), !segments.isEmpty else { return nil }
        for segment in segments.dropLast() where segment.isEmpty || segment.hasPrefix(".") { return nil }
        guard let last = segments.last, !last.hasPrefix(".") else { return nil }
        return segments.filter { !$0.isEmpty }.joined(separator: "/")
    }

    /// The path with every link resolved, so a link inside the app that points elsewhere is caught.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
