import ArgumentParser

@main
struct Overscroll: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "overscroll",
        abstract: "A scrollable list with touch overscroll and pull-to-refresh, on SDL2.",
        version: Version.string,
        subcommands: [Run.self, Replay.self, Report.self],
        defaultSubcommand: Run.self
    )
}

enum Version {
    static let string = "0.1.0"
}
