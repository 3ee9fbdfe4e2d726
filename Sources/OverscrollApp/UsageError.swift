import ArgumentParser
import Glibc
import OverscrollKit

/// How a command-line error is printed: ArgumentParser's message, with every token it
/// echoes cut to 80 characters and control characters written out (so the error is one
/// line however long or strange the input), then the usage of the command the user ran —
/// `replay`'s for a replay, not the window's, though the window's flags are checked first.
enum UsageError {
    /// Prints the message for `error` and exits with its status. Help and version go to
    /// standard output with status 0, written with every byte checked: `--version >&-` or
    /// into a full disk is a write that failed (74 and a line), not a silent success.
    static func exit(_ error: Error, arguments: [String] = ProcessArguments.afterName) -> Never {
        let status = Overscroll.exitCode(for: error)
        let full = Overscroll.fullMessage(for: error)
        guard status != .success else {
            do { try StandardOutput.write(full.isEmpty || full.hasSuffix("\n") ? full : full + "\n") } catch {
                writeStandardError("overscroll: \(error.message)\n")
                Glibc.exit(error.code)
            }
            Glibc.exit(0)
        }
        let text = render(message: Overscroll.message(for: error), full: full, subcommand: subcommand(in: arguments))
        if !text.isEmpty { writeStandardError(text + "\n") }
        Glibc.exit(status.rawValue)
    }

    /// The text to print: the error line (tokens cut, one line), ArgumentParser's "Help:"
    /// line if it gave one, and the usage of `subcommand` (or the window's).
    static func render(message: String, full: String, subcommand: ParsableCommand.Type?) -> String {
        var rest = Substring(full)
        // The message may hold line ends of its own (a value with a newline): drop it whole.
        let errorPart = "Error: \(message)"
        if rest.hasPrefix(errorPart) { rest = rest.dropFirst(errorPart.count) }
        if rest.hasPrefix("\n") { rest = rest.dropFirst() }
        var lines: [String] = []
        if !message.isEmpty { lines.append("Error: " + OutsideText.escaped(Echo.cutTokens(message))) }
        var usage = rest.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let help = usage.first, help.hasPrefix("Help: ") {
            lines.append(OutsideText.escaped(Echo.cutTokens(help)))
            usage.removeFirst()
        }
        if let subcommand, usage.first?.hasPrefix("Usage: ") == true {
            let name = subcommand._commandName
            usage = ["Usage: " + Overscroll.usageLine(of: subcommand),
                     "  See 'overscroll \(name) --help' for more information."]
        }
        lines += usage.filter { !$0.isEmpty }
        return lines.joined(separator: "\n")
    }

    /// The subcommand the arguments name, if any: its own usage is the one to show.
    static func subcommand(in arguments: [String]) -> ParsableCommand.Type? {
        for argument in arguments {
            if argument == "--" { return nil }
            if let command = Overscroll.configuration.subcommands.first(where: { $0._commandName == argument }) {
                return command
            }
        }
        return nil
    }
}

extension Overscroll {
    /// A subcommand's usage line, as its configuration writes it.
    static func usageLine(of subcommand: ParsableCommand.Type) -> String {
        subcommand.configuration.usage ?? "overscroll \(subcommand._commandName) --help"
    }
}
