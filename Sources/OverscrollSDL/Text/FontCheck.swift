import CSDL

/// Opens the font once before a run creates any output, so a file that is not a font is
/// refused as bad input (exit 66, like an unreadable one) rather than as a display failure,
/// and leaves no empty trace or report behind.
enum FontCheck {
    static func verify(_ path: String) throws(LaunchError) {
        guard TTF_Init() == 0 else { throw .display(SDLError("cannot start SDL_ttf")) }
        defer { TTF_Quit() }
        guard let font = TTF_OpenFont(path, 16) else {
            let shown = path.count > 80 ? String(path.prefix(79)) + "…" : path
            throw .input("font '\(shown)' is not a font SDL_ttf can open (\(String(cString: SDL_GetError()))); pass --font with a .ttf or .otf file")
        }
        TTF_CloseFont(font)
    }
}
