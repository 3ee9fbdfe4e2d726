/// What refresh work produces: new rows, or a message saying why there are none.
public enum RefreshResult: Sendable, Equatable {
    case success([String])
    case failure(String)
}
