import CProcessStart

/// The command line as the process received it (CProcessStart captures argc/argv in
/// `.preinit_array`), never `CommandLine.arguments`: the statically linked Swift runtime
/// guesses that one from `environ` or /proc/self/cmdline, and lost the whole command line
/// when a library's constructor called setenv() before main (sdl2-compat does, for every
/// SDL 2 variable set) or when /proc was not mounted.
enum ProcessArguments {
    /// argv, argv[0] first. Bytes that are not UTF-8 are repaired as Swift's own are.
    static let all: [String] = (0..<Int(ovs_process_argc())).map { i in
        ovs_process_argument(Int32(i)).map { String(cString: $0) } ?? ""
    }

    /// What the parser gets: argv without the program's name.
    static var afterName: [String] { Array(all.dropFirst()) }
}
