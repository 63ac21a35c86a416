import Foundation

/// A desktop file found under an `applications/` dir, with its desktop-file id.
struct LocatedDesktopFile: Equatable {
    /// The id: the path below `applications/` with `/` turned into `-` (`kde4/foo.desktop` → `kde4-foo.desktop`).
    var id: String
    var path: String
}

/// Finds desktop files in the XDG data dirs and decides which ones a user would see in a launcher.
enum DesktopEntryIndex {
    /// Every desktop file by id; for an id present in several data dirs, the earliest dir wins, so
    /// `$XDG_DATA_HOME` entries override system ones.
    static func files(in environment: HostEnvironment) -> [LocatedDesktopFile] {
        var seen = Set<String>()
        var result: [LocatedDesktopFile] = []
        for dataDir in environment.dataDirs {
            for file in files(under: dataDir + "/applications") where seen.insert(file.id).inserted {
                result.append(file)
            }
        }
        return result
    }

    /// The file for one id, with the same precedence as `files(in:)`.
    static func file(forID id: String, in environment: HostEnvironment) -> LocatedDesktopFile? {
        files(in: environment).first { $0.id == id }
    }

    /// Modification times of every applications dir and subdir: a new or removed entry changes one of them.
    static func signature(of environment: HostEnvironment) -> [String: Date] {
        var result: [String: Date] = [:]
        let manager = FileManager.default
        for dataDir in environment.dataDirs {
            let root = dataDir + "/applications"
            var dirs = [root]
            while let dir = dirs.popLast() {
                guard let attributes = try? manager.attributesOfItem(atPath: dir),
                    let date = attributes[.modificationDate] as? Date
                else { continue }
                result[dir] = date
                let children = (try? manager.contentsOfDirectory(atPath: dir)) ?? []
                dirs += children.map { dir + "/" + $0 }.filter { isDirectory($0) }
            }
        }
        return result
    }

    /// Whether a launcher should list the entry: a shown, non-hidden application for this desktop whose
    /// `TryExec` program exists.
    static func isListed(_ entry: DesktopEntry, in environment: HostEnvironment) -> Bool {
        guard entry.string("Type") == "Application", entry.string("Exec") != nil, entry.string("Name") != nil,
            !entry.bool("NoDisplay"), !entry.bool("Hidden")
        else { return false }
        let desktops = Set(environment.currentDesktops)
        let onlyShowIn = entry.list("OnlyShowIn")
        if !onlyShowIn.isEmpty, desktops.isDisjoint(with: onlyShowIn) { return false }
        if !desktops.isDisjoint(with: entry.list("NotShowIn")) { return false }
        if let tryExec = entry.string("TryExec"), environment.findExecutable(tryExec) == nil { return false }
        return true
    }

    private static func files(under root: String) -> [LocatedDesktopFile] {
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var result: [LocatedDesktopFile] = []
        while let relative = walker.nextObject() as? String {
            guard relative.hasSuffix(".desktop") else { continue }
            let id = relative.replacingOccurrences(of: "/", with: "-")
            result.append(LocatedDesktopFile(id: id, path: root + "/" + relative))
        }
        // Directory order is arbitrary; sorting keeps the result (and tests) deterministic.
        return result.sorted { $0.id < $1.id }
    }

    private static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
