/// What the user was doing during a frame, so a report can say *when* frames were slow
/// (JankStats' "states"): a hitch while dragging is felt, the same hitch at idle is not.
public enum UIState: String, CaseIterable, Sendable, Codable {
    case idle, dragging, overscrolled, momentum, refreshing

    /// Classifies a frame by the model as drawn. The order matters: a refresh in progress
    /// wins over the overscroll it holds open, and overscroll wins over the finger that
    /// causes it, because rubber-banding is the costlier and more visible case.
    public init(model: OverscrollModel) {
        switch model.refresh.state {
        case .refreshing, .finishing:
            self = .refreshing
        default:
            if model.scroll.overscroll > 0 {
                self = .overscrolled
            } else if model.scroll.isDragging {
                self = .dragging
            } else if !model.scroll.isAtRest {
                self = .momentum
            } else {
                self = .idle
            }
        }
    }

    /// Dense index for per-state tables (stable: the declaration order).
    public var index: Int {
        switch self {
        case .idle: 0
        case .dragging: 1
        case .overscrolled: 2
        case .momentum: 3
        case .refreshing: 4
        }
    }
}
