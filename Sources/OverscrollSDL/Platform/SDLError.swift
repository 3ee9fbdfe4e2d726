import CSDL

/// A failure reported by SDL, with SDL's own message attached.
public struct SDLError: Error, CustomStringConvertible {
    public var description: String

    public init(_ what: String) {
        let detail = String(cString: SDL_GetError())
        description = detail.isEmpty ? what : "\(what): \(detail)"
    }

    public init(message: String) { description = message }
}

/// Why a run could not start: the display (SDL, font), or an output file (trace, report).
/// The command line maps them to different exit statuses.
public enum LaunchError: Error, CustomStringConvertible {
    case display(SDLError)
    case output(String)
    /// An input that is not what it should be (a font that is not a font).
    case input(String)

    public var description: String {
        switch self {
        case .display(let error): error.description
        case .output(let message), .input(let message): message
        }
    }
}
