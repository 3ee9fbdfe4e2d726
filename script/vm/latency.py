"""Touch to scanout in the VM (issue 51), checked against times the program does not give.

script/vm/drive.py plays a rest-then-touch series on the KMSDRM kiosk (TOUCHES below) and
collects, apart from the app:
  - each packet's kernel time, read back from the panel's evdev node by the agent
    (script/vm/agent.py, `stamps`): the time the app's libinput reads for it;
  - each page flip's time as the kernel stamped its event, from the kernel's tracer: a
    kprobe on drm_send_event_timestamp_locked, which sends each DRM event with its time
    (the vblank's, or where the driver has none the commit's end), and the tracepoint
    drm:drm_vblank_event_delivered for each delivery (its trace time, clock `mono`, is a
    later reading: a bound, not the stamp); drm:drm_vblank_event counts real vblank
    interrupts;
and the app's report of the same run (frames.csv, trace.json, summary.json). The functions
here are pure: drive.py runs them on what it read.
"""
import math
import re

# One touch: the finger lands and rests 50 ms (a landing moves nothing, so no frame shows
# it, and the row's highlight would come at 100 ms), moves 60 px in one report (its
# first motion: the frame that shows it is the sample), stays still 0.3 s, lifts, and
# rests 1.1 s: the scroll bar, shown while the finger is on the list, holds 0.5 s and
# fades out in 0.3 s, and the next touch finds the app asleep on input with no frame in
# flight. Every other touch moves back, so the list ends where it began.
TOUCH_STEPS = (("down", 0), ("wait", 50), ("move", -60), ("wait", 300), ("up", 0), ("wait", 1100))
TOUCHES = 20
MOVE_STEP = 2          # the index of the move among TOUCH_STEPS
TOLERANCE_MS = 1.0     # reported against independent, at most
BAR_PERIODS = 1.5      # the bar: p95 <= 1.5 refresh periods + the draw time's p95

TRACE_LINE = re.compile(r"\s(\d+\.\d{6}):\s+(drm_vblank_event(?:_delivered)?|ovs_drm_event):\s*(.*)$")
EVENT_TS = re.compile(r"\bts=(-?\d+)")


def touch_steps(i, x=360, y=640):
    """The agent's steps for touch `i` (alternate touches move up and back down)."""
    sign = 1 if i % 2 == 0 else -1
    steps = []
    for kind, arg in TOUCH_STEPS:
        if kind == "down":
            steps.append(["down", 0, x, y])
        elif kind == "move":
            steps.append(["move", 0, x, y + sign * arg, 0])
        elif kind == "up":
            steps.append(["up", 0])
        else:
            steps.append(["wait", arg])
    return steps


def parse_trace(text):
    """(flips, delivered, vblanks): each event's own time as the kernel stamped it, µs
    (CLOCK_MONOTONIC; the kprobe's `ts`, truncated as DRM truncates it for the event);
    the trace's times of the deliveries (a later reading: a vCPU the host preempts
    between the two, under TCG, puts milliseconds between them); the count of
    drm_vblank_event lines (real vblank interrupts)."""
    flips, delivered, vblanks = [], [], 0
    for line in text.splitlines():
        m = TRACE_LINE.search(line)
        if not m:
            continue
        sec, frac = m.group(1).split(".")
        t = int(sec) * 1_000_000 + int(frac)
        if m.group(2) == "drm_vblank_event_delivered":
            delivered.append(t)
        elif m.group(2) == "ovs_drm_event":
            ts = EVENT_TS.search(m.group(3))
            if ts:
                flips.append(int(ts.group(1)) // 1000)
        else:
            vblanks += 1
    return flips, delivered, vblanks


def rank(values, q):
    """Nearest-rank percentile (the value at or above which 1 - q of them lie)."""
    s = sorted(values)
    return s[max(0, math.ceil(q * len(s)) - 1)] if s else float("nan")


def match(rows, flips, stamps):
    """The report's rows against the independent times.

    rows: frames.csv's rows of the series' frames, in order (each a presented frame: on
    the DRM path each is one page flip); flips: the flips' times (µs), in order; stamps:
    [(touch, kind, µs)] every packet the agent wrote. Returns (samples, others, problems):
    a sample per touch, the frame that showed its move (the first flip after it: the app
    was asleep, nothing in flight), with the report's value and the independent one;
    `others`: every other row with a value, against the latest packet before its flip;
    `problems`: what does not hold, in words."""
    problems = []
    if len(rows) != len(flips):
        problems.append(f"{len(rows)} frames in frames.csv but {len(flips)} flips in the kernel's trace")
    n = min(len(rows), len(flips))
    samples, shown = [], set()
    for touch, kind, t in stamps:
        if kind != "move":
            continue
        k = next((k for k in range(n) if flips[k] > t), None)
        if k is None:
            problems.append(f"touch {touch}: no flip after its move")
            continue
        shown.add(k)
        if not rows[k].get("latency_ms"):
            # The first flip after the move is a frame that handled no input: one was in
            # flight, the app was not at rest (the series' premise, not the app's figure).
            problems.append(f"touch {touch}: not from rest: frame {rows[k].get('frame')}, which handled no input, "
                            f"flipped {(flips[k] - t) / 1000:.3f} ms after its move")
            continue
        samples.append(sample(touch, "move", rows[k], flips[k], t, problems))
    others = []
    for k in range(n):
        if k in shown or not rows[k].get("touch_to_scanout_ms"):
            continue
        before = [s for s in stamps if s[2] < flips[k]]
        if not before:
            problems.append(f"frame {rows[k].get('frame')}: a touch_to_scanout_ms with no packet before its flip")
            continue
        touch, kind, t = max(before, key=lambda s: s[2])
        others.append(sample(touch, kind, rows[k], flips[k], t, problems))
    return samples, others, problems


def sample(touch, kind, row, flip, t, problems):
    value = row.get("touch_to_scanout_ms")
    independent = (flip - t) / 1000
    s = {"touch": touch, "event": kind, "frame": int(row.get("frame", -1)), "kernel_us": t, "flip_us": flip,
         "independent_ms": round(independent, 3), "reported_ms": float(value) if value else None,
         "draw_ms": round(sum(float(row.get(c) or 0) for c in ("input_ms", "update_ms", "render_ms")), 3)}
    if s["reported_ms"] is None:
        problems.append(f"touch {touch} ({kind}): frame {s['frame']} showed it ({independent:.3f} ms after it) "
                        "but has no touch_to_scanout_ms")
    else:
        s["difference_ms"] = round(s["reported_ms"] - independent, 3)
        if abs(s["difference_ms"]) > TOLERANCE_MS:
            problems.append(f"touch {touch} ({kind}): frame {s['frame']} reports {s['reported_ms']:.3f} ms, "
                            f"the kernel's times {independent:.3f} ms")
    return s


def phases(trace, frames):
    """The report's own marks of each frame in `frames` (trace.json's events, µs from its
    origin): input wait (touch to frame start), pump, model, draw, held (drawn to the
    present), present (the flip wait and the commit), vblank wait (present done to the
    flip's vblank). {frame: {phase: ms}}."""
    events = trace.get("traceEvents", [])
    out = {}
    by_frame = {}
    for e in events:
        frame = (e.get("args") or {}).get("frame")
        if e.get("name") == "frame" and e.get("ph") == "X" and frame in frames:
            by_frame.setdefault(frame, {})["frame"] = e
        elif e.get("name") == "touch" and frame in frames:
            by_frame.setdefault(frame, {})["touch"] = e
        elif e.get("name") == "scanout" and frame in frames:
            by_frame.setdefault(frame, {})["scanout"] = e
    # The phase slices follow their frame's slice in the file, before the next frame.
    current = None
    for e in events:
        if e.get("name") == "frame" and e.get("ph") == "X":
            current = (e.get("args") or {}).get("frame")
        elif e.get("cat") == "phase" and current in by_frame:
            by_frame[current][e["name"]] = e
    for frame, m in by_frame.items():
        if not all(k in m for k in ("frame", "touch", "scanout", "input", "update", "render", "present")):
            continue
        f, r, p = m["frame"], m["render"], m["present"]
        out[frame] = {"input wait": f["ts"] - m["touch"]["ts"], "pump": m["input"]["dur"], "model": m["update"]["dur"],
                      "draw": r["dur"], "held": p["ts"] - (r["ts"] + r["dur"]), "present": p["dur"],
                      "vblank wait": m["scanout"]["ts"] - (p["ts"] + p["dur"])}
        out[frame] = {k: round(v / 1000, 3) for k, v in out[frame].items()}
    return out


# In the guest (drive.py runs them with the agent's `sh`).
TRACING = "/sys/kernel/tracing"
# The event's own time: a kprobe on drm_send_event_timestamp_locked(dev, event, timestamp),
# which sends every DRM event with the time it carries (the third argument, %dx on x86-64).
KPROBE = "ovs_drm_event"
TRACE_ON = (f"T={TRACING}; [ -e $T/trace_clock ] || mount -t tracefs nodev $T || exit 1; "
            "echo 0 > $T/tracing_on && echo mono > $T/trace_clock && : > $T/trace && "
            f"{{ echo 'p:{KPROBE} drm_send_event_timestamp_locked ts=%dx:s64' >> $T/kprobe_events && "
            f"echo 1 > $T/events/kprobes/{KPROBE}/enable; }} 2>/dev/null; "
            "echo 1 > $T/events/drm/drm_vblank_event_delivered/enable && "
            "echo 1 > $T/events/drm/drm_vblank_event/enable && echo 1 > $T/tracing_on")
TRACE_OFF = (f"T={TRACING}; echo 0 > $T/tracing_on; grep -E ' (drm_vblank_event(_delivered)?|{KPROBE}):' $T/trace; "
             f"echo 0 > $T/events/drm/enable; {{ echo 0 > $T/events/kprobes/{KPROBE}/enable; "
             f"echo '-:{KPROBE}' >> $T/kprobe_events; }} 2>/dev/null; : > $T/trace")
# A second reader of the DRM device asks for the vblank counter (drmWaitVBlank, relative
# 0: now): the refresh grid where the device has one.
VBLANK_PROBE = r"""python3 -c '
import errno, fcntl, os, struct
fd = os.open("/dev/dri/card0", os.O_RDWR)
buf = bytearray(struct.pack("IIqq", 1, 0, 0, 0))
try:
    fcntl.ioctl(fd, 0xC018643A, buf)
    _, seq, sec, usec = struct.unpack("IIqq", buf)
    print(f"vblank {seq} at {sec}.{usec:06d}")
except OSError as x:
    print(f"refused ({errno.errorcode.get(x.errno, x.errno)})")
'"""
# trace.json's events of frames F0 < frame <= F1 (their slices, touch and scanout marks):
# the whole file is megabytes, too much for the serial line.
PICK = r"""python3 -c '
import json, sys
f0, f1 = int(sys.argv[2]), int(sys.argv[3])
keep, cur = [], None
for e in json.load(open(sys.argv[1]))["traceEvents"]:
    fr = (e.get("args") or {}).get("frame")
    if e.get("name") == "frame" and e.get("ph") == "X":
        cur = fr
    if (fr is not None and f0 < fr <= f1) or (e.get("cat") == "phase" and cur is not None and f0 < cur <= f1):
        keep.append(e)
print(json.dumps({"traceEvents": keep}))
'"""
