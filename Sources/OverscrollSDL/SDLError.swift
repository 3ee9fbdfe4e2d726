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
