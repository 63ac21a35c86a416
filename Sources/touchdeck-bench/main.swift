// touchdeck-bench [suite…]: runs every suite, or only the named ones. Each suite lives in its own file.
let suites: [BenchSuite] = [
    .deckKit,
    BenchSuite(name: "crypto") { runCryptoBench() },
    .sendPath,
]

let wanted = Set(CommandLine.arguments.dropFirst())
for suite in suites where wanted.isEmpty || wanted.contains(suite.name) {
    print("# \(suite.name)")
    suite.run()
}
