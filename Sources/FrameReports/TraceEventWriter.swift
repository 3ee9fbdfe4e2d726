import OverscrollKit
/// One frame as trace.json needs it, kept in a fixed ring while the run goes on.
struct TraceRecord: Sendable {
    var timing: FrameTiming
    var verdict: FrameVerdict

    static let empty = TraceRecord(
        timing: FrameTiming(frame: 0, frameStart: 0, inputDone: 0, updateDone: 0, renderDone: 0,
                            presentStart: 0, presentDone: 0, interval: 0, state: .idle),
        verdict: FrameVerdict(missedVsyncs: 0, overBudget: false, dominantPhase: .input))
}

/// trace.json in the Chrome trace-event format, which ui.perfetto.dev and chrome://tracing
/// open as is: a "frame" slice per frame with its phases nested inside, counter tracks for
/// interval and latency, and an instant marker on every janky frame.
enum TraceEventWriter {
    static let fileName = "trace.json"

    /// Streams the events to `file` (in chunks: a full ring is tens of megabytes).
    /// `origin` is the monotonic time that becomes ts 0.
    static func write(_ ring: FixedRing<TraceRecord>, origin: Double, metadata: ReportMetadata,
                      framesTotal: Int, to file: inout AtomicFile) throws(ReportWriterError) {
        file.buffer.clear()
        file.buffer.append("{\"traceEvents\":[\n" as StaticString)
        file.buffer.append("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"args\":{\"name\":\"overscroll\"}},\n" as StaticString)
        file.buffer.append("{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":1,\"args\":{\"name\":\"frame loop\"}}" as StaticString)
        file.buffer.append(",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":2,\"args\":{\"name\":\"input to glass\"}}" as StaticString)

        // Boundaries in integer nanoseconds from the origin, forced to be non-decreasing,
        // and each frame starting no earlier than the previous one ended: then children
        // sit inside their frame and frames never overlap, exactly, whatever rounding or
        // a misordered timestamp from the loop would otherwise do.
        var previousEnd: Int64 = 0
        var failure: ReportWriterError?
        ring.forEach { record in
            guard failure == nil else { return }
            let t = record.timing
            let s0 = max(previousEnd, ns(t.frameStart, origin))
            let s1 = max(s0, ns(t.inputDone, origin))
            let s2 = max(s1, ns(t.updateDone, origin))
            let s3 = max(s2, ns(t.renderDone, origin))
            let s4 = max(s3, ns(t.presentStart, origin))
            let s5 = max(s4, ns(t.presentDone, origin))
            previousEnd = s5

            file.buffer.append(",\n{\"name\":\"frame\",\"cat\":\"frame\",\"ph\":\"X\",\"ts\":" as StaticString)
            micros(&file.buffer, s0)
            file.buffer.append(",\"dur\":" as StaticString); micros(&file.buffer, s5 - s0)
            file.buffer.append(",\"pid\":1,\"tid\":1,\"args\":{\"frame\":" as StaticString); file.buffer.append(t.frame)
            file.buffer.append(",\"state\":\"" as StaticString); file.buffer.append(FrameRowFormat.name(t.state))
            file.buffer.append("\",\"missed_vsyncs\":" as StaticString); file.buffer.append(record.verdict.missedVsyncs)
            file.buffer.append(",\"dominant_phase\":\"" as StaticString); file.buffer.append(FrameRowFormat.name(record.verdict.dominantPhase))
            file.buffer.append("\"}}" as StaticString)
            slice(&file.buffer, "input", s0, s1)
            slice(&file.buffer, "update", s1, s2)
            slice(&file.buffer, "render", s2, s3)
            slice(&file.buffer, "present", s4, s5)

            counter(&file.buffer, "interval_ms", at: s5, value: t.interval * 1000)
            if let l = t.latency { counter(&file.buffer, "latency_ms", at: s5, value: l * 1000) }
            if let touch = t.touchTime, let glass = t.scanoutTime, let value = t.touchToScanout {
                inputToGlass(&file.buffer, frame: t.frame, touch: ns(touch, origin), frameStart: s0,
                             scanout: ns(glass, origin), value: value)
            }
            if record.verdict.janky {
                file.buffer.append(",\n{\"name\":\"jank\",\"ph\":\"i\",\"s\":\"t\",\"ts\":" as StaticString)
                micros(&file.buffer, s5)
                file.buffer.append(",\"pid\":1,\"tid\":1,\"args\":{\"missed_vsyncs\":" as StaticString)
                file.buffer.append(record.verdict.missedVsyncs)
                file.buffer.append("}}" as StaticString)
            }
            do throws(ReportWriterError) { try file.drainIfLarge() } catch { failure = error }
        }
        if let failure { throw failure }
        file.buffer.append("\n],\"displayTimeUnit\":\"ms\",\"otherData\":{\"program_version\":" as StaticString)
        file.buffer.append(jsonString(metadata.programVersion))
        file.buffer.append(",\"mode\":" as StaticString); file.buffer.append(jsonString(metadata.mode))
        file.buffer.append(",\"frames_total\":" as StaticString); file.buffer.append(framesTotal)
        file.buffer.append(",\"frames_kept\":" as StaticString); file.buffer.append(ring.count)
        file.buffer.append("}}\n" as StaticString)
    }

    private static func ns(_ t: Double, _ origin: Double) -> Int64 {
        let v = ((t - origin) * 1e9).rounded()
        guard v.isFinite else { return 0 }
        return Int64(max(0, min(v, 9e18)))
    }

    /// Nanoseconds written as microseconds with 3 decimals, from integers: exact.
    private static func micros(_ out: inout CSVRowBuffer, _ ns: Int64) {
        out.append(Int(ns / 1000))
        let frac = Int(ns % 1000)
        out.append("." as StaticString)
        if frac < 100 { out.append("0" as StaticString) }
        if frac < 10 { out.append("0" as StaticString) }
        out.append(frac)
    }

    /// A touch to the frame that showed it, as Perfetto draws input → frame: the touch a
    /// zero-length slice on the "input to glass" track, a flow arrow from it into the frame's
    /// slice, the vblank that showed the frame a marker, and the value a counter there.
    private static func inputToGlass(_ out: inout CSVRowBuffer, frame: Int, touch: Int64, frameStart: Int64,
                                     scanout: Int64, value: Double) {
        out.append(",\n{\"name\":\"touch\",\"cat\":\"input\",\"ph\":\"X\",\"ts\":" as StaticString); micros(&out, touch)
        out.append(",\"dur\":0,\"pid\":1,\"tid\":2,\"args\":{\"frame\":" as StaticString); out.append(frame)
        out.append("}}" as StaticString)
        out.append(",\n{\"name\":\"touch to scanout\",\"cat\":\"input\",\"ph\":\"s\",\"id\":" as StaticString); out.append(frame)
        out.append(",\"ts\":" as StaticString); micros(&out, touch)
        out.append(",\"pid\":1,\"tid\":2}" as StaticString)
        out.append(",\n{\"name\":\"touch to scanout\",\"cat\":\"input\",\"ph\":\"f\",\"bp\":\"e\",\"id\":" as StaticString); out.append(frame)
        out.append(",\"ts\":" as StaticString); micros(&out, max(frameStart, touch))
        out.append(",\"pid\":1,\"tid\":1}" as StaticString)
        out.append(",\n{\"name\":\"scanout\",\"ph\":\"i\",\"s\":\"t\",\"ts\":" as StaticString); micros(&out, scanout)
        out.append(",\"pid\":1,\"tid\":2,\"args\":{\"frame\":" as StaticString); out.append(frame)
        out.append("}}" as StaticString)
        counter(&out, "touch_to_scanout_ms", at: scanout, value: value * 1000)
    }

    private static func slice(_ out: inout CSVRowBuffer, _ name: StaticString, _ start: Int64, _ end: Int64) {
        out.append(",\n{\"name\":\"" as StaticString); out.append(name)
        out.append("\",\"cat\":\"phase\",\"ph\":\"X\",\"ts\":" as StaticString); micros(&out, start)
        out.append(",\"dur\":" as StaticString); micros(&out, end - start)
        out.append(",\"pid\":1,\"tid\":1}" as StaticString)
    }

    private static func counter(_ out: inout CSVRowBuffer, _ name: StaticString, at ts: Int64, value: Double) {
        out.append(",\n{\"name\":\"" as StaticString); out.append(name)
        out.append("\",\"ph\":\"C\",\"ts\":" as StaticString); micros(&out, ts)
        out.append(",\"pid\":1,\"args\":{\"" as StaticString); out.append(name)
        out.append("\":" as StaticString)
        // JSON has no NaN or infinity: a broken value becomes 0 rather than a broken file.
        out.append(value.isFinite ? value : 0, decimals: 3)
        out.append("}}" as StaticString)
    }

    /// A JSON string literal.
    static func jsonString(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
