/// UIScrollView's rubber band, applied to the *total* overscroll so that the same finger
/// position always gives the same content position and pushing back retraces exactly:
///
///     b(x) = (1 − 1 / (x·c/d + 1)) · d        inverse: x = d·b / (c·(d − b))
///
/// `x` is how far past the edge the finger asks for, `d` the viewport dimension, `c` the
/// coefficient (0.55 on iOS). b'(0) = c and b never reaches d.
public struct RubberBand: Sendable, Equatable {
    public var coefficient: Double

    public init(coefficient: Double = 0.55) { self.coefficient = coefficient }

    /// Visible overscroll for a requested overscroll `x` ≥ 0.
    public func band(_ x: Double, dimension d: Double) -> Double {
        guard x > 0, d > 0 else { return 0 }
        return (1 - 1 / (x * coefficient / d + 1)) * d
    }

    /// The requested overscroll that produces the visible overscroll `b`.
    public func inverse(_ b: Double, dimension d: Double) -> Double {
        guard b > 0, d > 0 else { return 0 }
        let visible = min(b, d * 0.999_999)   // b = d would need an infinite pull
        return d * visible / (coefficient * (d - visible))
    }

    /// Slope of `band` at `x`: how much of the finger's motion the content follows.
    public func slope(_ x: Double, dimension d: Double) -> Double {
        guard d > 0 else { return 0 }
        let q = max(0, x) * coefficient / d + 1
        return coefficient / (q * q)
    }
}
