import DeckDesktop
import Testing

@testable import DeckActions

@Suite struct ExecLineTests {
    let fields = ExecLine.Fields(name: "My App", icon: "my-icon", entryPath: "/usr/share/applications/my.desktop")

    @Test(arguments: [
        ("gedit %U", ["gedit"]),
        ("firefox %u --new-window", ["firefox", "--new-window"]),
        ("vlc --started-from-file %F", ["vlc", "--started-from-file"]),
        ("app %f", ["app"]),
        ("app %i", ["app", "--icon", "my-icon"]),
        ("app --title=%c", ["app", "--title=My App"]),
        ("app %k", ["app", "/usr/share/applications/my.desktop"]),
        ("app 100%%", ["app", "100%"]),
        ("app %d %D %n %N %v %m", ["app"]),
        (#""/opt/My App/run" --flag"#, ["/opt/My App/run", "--flag"]),
        (#"sh -c "echo \"hi\" \$HOME \`x\` \\ done""#, ["sh", "-c", #"echo "hi" $HOME `x` \ done"#]),
        ("sh -c 'echo one two'", ["sh", "-c", "echo one two"]),
        ("env  A=1   prog", ["env", "A=1", "prog"]),
        (#"prog """#, ["prog", ""]),
    ])
    func expandsAndSplits(exec: String, expected: [String]) throws {
        #expect(try ExecLine.arguments(exec, fields: fields) == expected)
    }

    @Test func iconCodeVanishesWithoutIcon() throws {
        var noIcon = fields
        noIcon.icon = nil
        #expect(try ExecLine.arguments("app %i", fields: noIcon) == ["app"])
    }

    @Test func rejectsUnterminatedQuotesAndEmptyLines() {
        #expect(throws: ExecLine.ParseError.unterminatedQuote) { try ExecLine.arguments(#"app "oops"#, fields: fields) }
        #expect(throws: ExecLine.ParseError.empty) { try ExecLine.arguments("  %U ", fields: fields) }
    }

    @Test func stringUnescapingComesFirst() throws {
        // In the file, a literal backslash inside quotes is written `\\\\`: the string level turns it
        // into `\\`, the quoting level into `\`.
        let exec = DesktopEntry(parsing: "[Desktop Entry]\nExec=printf \"a\\\\\\\\b\"").string("Exec") ?? ""
        #expect(try ExecLine.arguments(exec, fields: fields) == ["printf", #"a\b"#])
    }
}
