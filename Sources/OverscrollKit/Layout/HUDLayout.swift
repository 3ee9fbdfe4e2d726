/// The frame-time graph at the bottom right, away from the refresh indicator and the
/// error banner: the last ~2 s of present-to-present intervals as bars, CPU time over
/// them, and the budget line at the measured refresh period, 0…50 ms as MangoHud's graph.
public struct HUDLayout: Sendable, Equatable {
    public static let scaleMilliseconds = 50.0

    public private(set) var panel = FillRect(x: 0, y: 0, w: 0, h: 0)
    public private(set) var intervalBars: [FillRect] = []
    public private(set) var jankBars: [FillRect] = []
    public private(set) var cpuBars: [FillRect] = []
    public private(set) var budgetLine = FillRect(x: 0, y: 0, w: 0, h: 0)
    /// The label's text and its top-left corner.
    public private(set) var label = ""
    public private(set) var labelOrigin = (x: 0.0, y: 0.0)
    private var labelFor: (jank: Int, period: Double)?

    init() {}

    mutating func update(_ graph: HUDScene, scale s: Double, width: Double, height: Double) {
        let w = min(width - 16, 240) * s, h = 96 * s
        panel = FillRect(x: width * s - w - 8 * s, y: height * s - h - 8 * s, w: w, h: h)
        let graphTop = panel.y + 24 * s, graphH = panel.h - 30 * s
        let maxMs = Self.scaleMilliseconds
        let barW = panel.w / Double(max(1, graph.capacity))
        intervalBars.removeAll(keepingCapacity: true)
        cpuBars.removeAll(keepingCapacity: true)
        jankBars.removeAll(keepingCapacity: true)
        for (i, sample) in graph.samples.enumerated() {
            let x = panel.x + Double(i) * barW
            let hi = min(1, sample.interval * 1000 / maxMs) * graphH
            let hc = min(1, sample.cpu * 1000 / maxMs) * graphH
            let bar = FillRect(x: x, y: graphTop + graphH - hi, w: max(1, barW), h: hi)
            if sample.janky { jankBars.append(bar) } else { intervalBars.append(bar) }
            cpuBars.append(FillRect(x: x, y: graphTop + graphH - hc, w: max(1, barW), h: hc))
        }
        let budgetY = graphTop + graphH - min(1, graph.refreshPeriod * 1000 / maxMs) * graphH
        budgetLine = FillRect(x: panel.x, y: budgetY, w: panel.w, h: max(1, s))
        if labelFor == nil || labelFor! != (graph.jankyFrames, graph.refreshPeriod) {
            // Made again only when what it says changes: not a per-frame allocation.
            labelFor = (graph.jankyFrames, graph.refreshPeriod)
            let budget = (graph.refreshPeriod * 10000).rounded() / 10
            label = "budget \(budget) ms · janky \(graph.jankyFrames)"
        }
        labelOrigin = (panel.x + 8 * s, panel.y + 2 * s)
    }

    public static func == (a: HUDLayout, b: HUDLayout) -> Bool {
        a.panel == b.panel && a.intervalBars == b.intervalBars && a.jankBars == b.jankBars && a.cpuBars == b.cpuBars
            && a.budgetLine == b.budgetLine && a.label == b.label && a.labelOrigin == b.labelOrigin
    }
}
