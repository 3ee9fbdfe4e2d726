import CSDL
import OverscrollKit

/// Where a frame drawn at the app's size lies in a turned screen's buffer, for the
/// shared-memory presenter that writes it there turned (`WindowCanvas`'s turn): the
/// buffer's shape and the rectangles it damages. The ring of rows the list is kept in
/// (`RingBuffers`) stays the app's; turned 90° or 270° it lies along the panel's columns,
/// so the panel shows it from a column, as unturned from a row, and 180° mirrors it.
extension ScreenRotation {
    /// Whether the panel's width is the app's height.
    var crosswise: Bool { self == .quarter || self == .threeQuarters }

    /// The buffer for an app's frame `width` × `height` kept in `rows` rows (a ring: the
    /// window's top on row `offset`), turned onto the panel: 90° turns the app's row y into
    /// the panel's column rows − 1 − y (clockwise, as `toLogical` reads a touch), 270° into
    /// column y, 180° into row rows − 1 − y.
    func buffer(width: Int32, height: Int32, rows: Int32, offset: Int32) -> BufferShape {
        let back = rows - height - offset      // the window's top counted from the memory's end
        switch self {
        case .none: return BufferShape(columns: width, rows: rows, width: width, height: height, x: 0, y: offset)
        case .half: return BufferShape(columns: width, rows: rows, width: width, height: height, x: 0, y: back)
        case .quarter: return BufferShape(columns: rows, rows: width, width: height, height: width, x: back, y: 0)
        case .threeQuarters: return BufferShape(columns: rows, rows: width, width: height, height: width, x: offset, y: 0)
        }
    }

    /// `rect` of an app's window `width` × `height` on the turned panel.
    func onPanel(_ rect: SDL_Rect, width: Int32, height: Int32) -> SDL_Rect {
        switch self {
        case .none: rect
        case .half: SDL_Rect(x: width - rect.x - rect.w, y: height - rect.y - rect.h, w: rect.w, h: rect.h)
        case .quarter: SDL_Rect(x: height - rect.y - rect.h, y: rect.x, w: rect.h, h: rect.w)
        case .threeQuarters: SDL_Rect(x: rect.y, y: width - rect.x - rect.w, w: rect.h, h: rect.w)
        }
    }
}
