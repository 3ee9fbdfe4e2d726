#!/usr/bin/python3
"""The guest side of script/vm-test: a command agent on the second serial port and the
touchscreen, in one process started by vm-agent.service before either kiosk unit.

The touchscreen is a uinput type-B multitouch device, as a panel's kernel driver makes
one: ABS_MT_SLOT, ABS_MT_TRACKING_ID, ABS_MT_POSITION_X/Y (and ABS_X/Y for the single
touch view), BTN_TOUCH, INPUT_PROP_DIRECT, axes in screen pixels (720x1280). udev tags it
ID_INPUT_TOUCHSCREEN=1; SDL's evdev code (KMSDRM) and libinput (cage) both take it. It is
made before READY=1, so the kiosk finds it at start as it would find a panel at boot.

The kernel command line says which boot of the test's matrix this is (script/vm/drive.py
puts it there; one image serves every boot):
  vmtest.touch=multi:MAXX:MAXY    the multitouch panel above, axes 0..MAX (default: pixels)
  vmtest.touch=single:MAXX:MAXY   a single-touch panel: ABS_X/ABS_Y and BTN_TOUCH only, as
                                  resistive and older USB panels are
  vmtest.touch=protocol-a:MAXX:MAXY  a multitouch panel of the kernel's protocol A (no slots,
                                  no tracking ids: every finger down again in each packet,
                                  each ended by SYN_MT_REPORT), as older eGalax/eeti and
                                  some vendor drivers report; libinput reads it through mtdev
  vmtest.touch=pen:MAXX:MAXY      a panel that reports as a pen on the glass (a HID
                                  digitizer's stylus: BTN_TOOL_PEN, BTN_TOUCH, ABS_X/Y with a
                                  resolution, ABS_PRESSURE; udev says ID_INPUT_TABLET=1), as
                                  many resistive controllers and pen displays do: libinput's
                                  tablet tool, one contact
  vmtest.kiosk=KEY:VALUE,...      the boot's kiosk.toml drop-in (55-vm-boot.toml), written
                                  before the kiosk starts: e.g. rotate:90
  vmtest.ctl=PATH                 the command channel's device (default /dev/ttyS1): on the
                                  arm64 machine (no ISA serial) a virtio-serial port,
                                  /dev/virtio-ports/vmtest.ctl
The host sends touch in the panel's own units (it scales and turns the app's points).

Protocol on /dev/ttyS1 or vmtest.ctl's device (no login, no network): the host writes one line per request,
`REQ <id> <base64 JSON>`, and gets `RES <id> <base64 JSON>` back. At start the agent
writes `HELLO <boot id>` so the host knows a (re)boot has finished. Requests:
  {"sh": "command", "timeout": 30}    -> {"rc": N, "out": "...", "err": "..."}
  {"touch": [["down", slot, x, y], ["move", slot, x, y, ms], ["up", slot],
             ["wait", ms]]}           -> {"rc": 0}: the steps played in real time
  {"touch": [...], "stamps": true}    -> {"rc": 0, "stamps": [[step, usec], ...]}: each event
                                         packet the steps wrote, at the time the guest kernel
                                         stamped it (below), by the index of its step
The stamps are read back from the panel's own evdev node (/dev/input/eventN), opened as a
second reader with its clock set to CLOCK_MONOTONIC (EVIOCSCLOCKID, as libinput sets its
own): evdev stamps a packet once, when it is reported (the SYN_REPORT), and every reader
gets that one time, so it is the time the app's libinput reads for the same packet. The
time uinput's writer passes is not it (the kernel ignores it); no figure of the app's is.
"""
import base64, fcntl, glob, json, os, re, socket, struct, subprocess, sys, termios, time, tty

from evdev import AbsInfo, UInput, ecodes as e

W, H = 720, 1280
SLOTS = 10


def boot_params(cmdline):
    """vmtest.* from the kernel command line, by name."""
    return dict(w.split("=", 1)[0:2] for w in cmdline.split() if w.startswith("vmtest.") and "=" in w)


def touch_kind(params):
    """(kind, max_x, max_y) from vmtest.touch; the multitouch panel in pixels without it."""
    kind, *axes = (params.get("vmtest.touch") or f"multi:{W - 1}:{H - 1}").split(":")
    if kind not in ("multi", "single", "protocol-a", "pen") or len(axes) != 2:
        raise SystemExit(f"agent: vmtest.touch={params['vmtest.touch']}: want multi, single, protocol-a or pen:MAXX:MAXY")
    return kind, int(axes[0]), int(axes[1])


def kiosk_dropin(params, path="/etc/overscroll/kiosk.toml.d/55-vm-boot.toml"):
    """The boot's settings (vmtest.kiosk=KEY:VALUE,...): numbers and booleans as they are,
    anything else quoted. No such parameter: no drop-in (a file left from another boot goes)."""
    items = [i.split(":", 1) for i in params.get("vmtest.kiosk", "").split(",") if ":" in i]
    if not items:
        if os.path.exists(path):
            os.unlink(path)
        return
    def value(v):
        return v if re.fullmatch(r"-?\d+(\.\d+)?|true|false", v) else json.dumps(v)
    with open(path + ".tmp", "w") as f:
        f.write("".join(f"{k} = {value(v)}\n" for k, v in items))
    os.rename(path + ".tmp", path)


def make_touchscreen(kind, max_x, max_y):
    axes = [(e.ABS_X, AbsInfo(0, 0, max_x, 0, 0, 0)), (e.ABS_Y, AbsInfo(0, 0, max_y, 0, 0, 0))]
    if kind == "single":
        return UInput({e.EV_KEY: [e.BTN_TOUCH], e.EV_ABS: axes}, name="vm-test single-touch panel",
                      vendor=0x1234, product=0x5679, input_props=[e.INPUT_PROP_DIRECT])
    if kind == "pen":
        # libinput takes a tablet only with a resolution on both axes (units a millimetre).
        pen = [(e.ABS_X, AbsInfo(0, 0, max_x, 0, 0, 20)), (e.ABS_Y, AbsInfo(0, 0, max_y, 0, 0, 20)),
               (e.ABS_PRESSURE, AbsInfo(0, 0, 1023, 0, 0, 0))]
        return UInput({e.EV_KEY: [e.BTN_TOOL_PEN, e.BTN_TOUCH, e.BTN_STYLUS], e.EV_ABS: pen}, name="vm-test pen display",
                      vendor=0x1234, product=0x567B, input_props=[e.INPUT_PROP_DIRECT])
    if kind == "protocol-a":
        axes += [(e.ABS_MT_POSITION_X, AbsInfo(0, 0, max_x, 0, 0, 0)), (e.ABS_MT_POSITION_Y, AbsInfo(0, 0, max_y, 0, 0, 0))]
        return UInput({e.EV_KEY: [e.BTN_TOUCH], e.EV_ABS: axes}, name="vm-test protocol-A touchscreen",
                      vendor=0x1234, product=0x567A, input_props=[e.INPUT_PROP_DIRECT])
    caps = {
        e.EV_KEY: [e.BTN_TOUCH],
        e.EV_ABS: [
            (e.ABS_X, AbsInfo(0, 0, max_x, 0, 0, 0)),
            (e.ABS_Y, AbsInfo(0, 0, max_y, 0, 0, 0)),
            (e.ABS_MT_SLOT, AbsInfo(0, 0, SLOTS - 1, 0, 0, 0)),
            (e.ABS_MT_TRACKING_ID, AbsInfo(0, 0, 65535, 0, 0, 0)),
            (e.ABS_MT_POSITION_X, AbsInfo(0, 0, max_x, 0, 0, 0)),
            (e.ABS_MT_POSITION_Y, AbsInfo(0, 0, max_y, 0, 0, 0)),
        ],
    }
    return UInput(caps, name="vm-test touchscreen", vendor=0x1234, product=0x5678,
                  input_props=[e.INPUT_PROP_DIRECT])


# <linux/input.h>: struct input_event on a 64-bit kernel (two longs of time, type, code,
# value), and EVIOCSCLOCKID = _IOW('E', 0xa0, int).
EVENT = struct.Struct("llHHi")
EVIOCSCLOCKID = 0x400445A0
CLOCK_MONOTONIC = 1


def evdev_node(ui, tries=100):
    """The panel's /dev/input/eventN, by its name in sysfs: python-evdev's own lookup
    (`ui.device`) gives up after 0.1 s, which udev on a loaded guest can miss."""
    for _ in range(tries):
        if ui.device is not None:
            return ui.device.path
        for path in sorted(glob.glob("/dev/input/event*")):
            try:
                with open(f"/sys/class/input/{os.path.basename(path)}/device/name") as f:
                    if f.read().strip() == ui.name:
                        return path
            except OSError:
                pass
        time.sleep(0.1)
    raise RuntimeError(f"no /dev/input/event* named {ui.name!r}")


class Stamps:
    """The panel's evdev node read back by a reader of its own, its clock CLOCK_MONOTONIC:
    the kernel's time of each packet (SYN_REPORT) written, in microseconds. Opened when
    first asked for (a request's error then, never the agent's start)."""
    def __init__(self, path):
        self.fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        fcntl.ioctl(self.fd, EVIOCSCLOCKID, struct.pack("i", CLOCK_MONOTONIC))

    def read(self):
        """The packets waiting, as times in µs (evdev's buffer holds some 64 events: read
        after every step, before it can overflow)."""
        times = []
        while True:
            try:
                data = os.read(self.fd, EVENT.size * 64)
            except BlockingIOError:
                return times
            for sec, usec, kind, code, _ in EVENT.iter_unpack(data[:len(data) - len(data) % EVENT.size]):
                if kind == e.EV_SYN and code == e.SYN_REPORT:
                    times.append(sec * 1_000_000 + usec)


class Touch:
    def __init__(self, ui, kind="multi"):
        self.ui = ui
        self.stamps = None
        self.taken, self.index = None, 0    # play()'s stamps, and the step being played
        # A single-touch panel knows one finger: no slots, no tracking ids; a second
        # finger is not seen (its steps are ignored).
        self.single = kind in ("single", "pen")
        # A pen: the single touch's packets, the tool in proximity while the tip is down.
        self.pen = kind == "pen"
        # Protocol A: no slots; each packet lists every finger down (`_report_a`).
        self.protocol_a = kind == "protocol-a"
        self.down = {}          # slot -> (x, y)
        self.next_id = 1
        self.slot = -1

    def _slot(self, slot):
        if slot != self.slot:
            self.ui.write(e.EV_ABS, e.ABS_MT_SLOT, slot)
            self.slot = slot

    def _single(self):
        # The single-touch view follows the lowest finger down, as kernel drivers do.
        if self.down:
            x, y = self.down[min(self.down)]
            self.ui.write(e.EV_ABS, e.ABS_X, x)
            self.ui.write(e.EV_ABS, e.ABS_Y, y)

    def _report_a(self):
        """A protocol-A packet: each finger down, then the single-touch view; none down,
        an empty report (the kernel's documentation: the last finger lifted)."""
        for x, y in (self.down[k] for k in sorted(self.down)):
            self.ui.write(e.EV_ABS, e.ABS_MT_POSITION_X, x)
            self.ui.write(e.EV_ABS, e.ABS_MT_POSITION_Y, y)
            self.ui.write(e.EV_SYN, e.SYN_MT_REPORT, 0)
        if not self.down:
            self.ui.write(e.EV_SYN, e.SYN_MT_REPORT, 0)
        self._single()
        self.ui.syn()

    def press(self, slot, x, y):
        if self.protocol_a:
            first = not self.down
            self.down[slot] = (x, y)
            if first:
                self.ui.write(e.EV_KEY, e.BTN_TOUCH, 1)
            return self._report_a()
        if self.single:
            if not self.down:
                self.down[slot] = (x, y)
                if self.pen:
                    self.ui.write(e.EV_KEY, e.BTN_TOOL_PEN, 1)
                    self.ui.write(e.EV_ABS, e.ABS_PRESSURE, 600)
                self.ui.write(e.EV_ABS, e.ABS_X, x)
                self.ui.write(e.EV_ABS, e.ABS_Y, y)
                self.ui.write(e.EV_KEY, e.BTN_TOUCH, 1)
                self.ui.syn()
            return
        first = not self.down
        self._slot(slot)
        self.ui.write(e.EV_ABS, e.ABS_MT_TRACKING_ID, self.next_id)
        self.next_id += 1
        self.ui.write(e.EV_ABS, e.ABS_MT_POSITION_X, x)
        self.ui.write(e.EV_ABS, e.ABS_MT_POSITION_Y, y)
        self.down[slot] = (x, y)
        if first:
            self.ui.write(e.EV_KEY, e.BTN_TOUCH, 1)
        self._single()
        self.ui.syn()

    def motion(self, slot, x, y):
        if self.protocol_a:
            self.down[slot] = (x, y)
            return self._report_a()
        if self.single:
            if slot in self.down:
                self.down[slot] = (x, y)
                self.ui.write(e.EV_ABS, e.ABS_X, x)
                self.ui.write(e.EV_ABS, e.ABS_Y, y)
                self.ui.syn()
            return
        self._slot(slot)
        self.ui.write(e.EV_ABS, e.ABS_MT_POSITION_X, x)
        self.ui.write(e.EV_ABS, e.ABS_MT_POSITION_Y, y)
        self.down[slot] = (x, y)
        self._single()
        self.ui.syn()

    def release(self, slot):
        if self.protocol_a:
            if self.down.pop(slot, None) and not self.down:
                self.ui.write(e.EV_KEY, e.BTN_TOUCH, 0)
            return self._report_a()
        if self.single:
            if self.down.pop(slot, None):
                self.ui.write(e.EV_KEY, e.BTN_TOUCH, 0)
                if self.pen:
                    # The tip up, then the tool out of proximity in a packet of its own.
                    self.ui.write(e.EV_ABS, e.ABS_PRESSURE, 0)
                    self.ui.syn()
                    self.ui.write(e.EV_KEY, e.BTN_TOOL_PEN, 0)
                self.ui.syn()
            return
        self._slot(slot)
        self.ui.write(e.EV_ABS, e.ABS_MT_TRACKING_ID, -1)
        self.down.pop(slot, None)
        if not self.down:
            self.ui.write(e.EV_KEY, e.BTN_TOUCH, 0)
        self._single()
        self.ui.syn()

    def hold(self, seconds):
        """A pen held still on the glass: its pressure wanders, so a digitizer keeps
        reporting at about 100 Hz where it stays (the kernel drops a packet that changes
        nothing). libinput averages a pen's position over its last packets; without these
        it would rest where the average was, short of the pen (3 px of a pull, measured)."""
        end = time.monotonic() + seconds
        k = 0
        while time.monotonic() < end:
            time.sleep(min(0.01, max(0.0, end - time.monotonic())))
            k += 1
            self.ui.write(e.EV_ABS, e.ABS_PRESSURE, 600 + k % 2)
            self.ui.syn()
            self._take()

    def play(self, steps, stamps=None):
        """Plays `steps`; with `stamps` (a list), appends [step index, µs] for each packet
        written, at the kernel's time read back (those from before the steps are dropped:
        the reader's buffer overflows between series, which evdev survives)."""
        if stamps is not None:
            self.stamps = self.stamps or Stamps(evdev_node(self.ui))
            self.stamps.read()
        self.taken = stamps
        try:
            for index, step in enumerate(steps):
                self.index = index
                self.step(step)
                self._take()
        finally:
            self.taken = None

    def _take(self):
        """The stamps of the packets written since the last take (a move's, after each of
        its reports: its 40 packets would overflow evdev's buffer before the step ends)."""
        if self.taken is not None:
            self.taken.extend([self.index, t] for t in self.stamps.read())

    def step(self, step):
        kind = step[0]
        if kind == "down":
            self.press(int(step[1]), int(step[2]), int(step[3]))
        elif kind == "up":
            self.release(int(step[1]))
        elif kind == "wait":
            if self.pen and self.down:
                return self.hold(step[1] / 1000)
            time.sleep(step[1] / 1000)
        elif kind == "move":
            slot, x1, y1, ms = int(step[1]), int(step[2]), int(step[3]), float(step[4])
            if slot not in self.down:
                return          # a finger a single-touch panel does not see
            x0, y0 = self.down[slot]
            # A panel reports at about 100 Hz: a point every 10 ms, on the monotonic clock.
            n = max(1, int(ms / 10))
            start = time.monotonic()
            for i in range(1, n + 1):
                due = start + ms / 1000 * i / n
                delay = due - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
                self.motion(slot, round(x0 + (x1 - x0) * i / n), round(y0 + (y1 - y0) * i / n))
                self._take()
        else:
            raise ValueError(f"unknown touch step {step!r}")


class panel_timing:
    """While a gesture plays, the agent runs ahead of the kiosk (SCHED_FIFO), as a panel's
    controller reports on its own clock whatever the kiosk's load: at the kiosk's priority,
    a turned screen's frames under TCG held the agent back 40 ms and more between a flick's
    last move and its lift, and the kiosk rightly saw a finger that had stopped (no
    momentum, VelocityTracker.maxGap). The agent sleeps between reports, so it takes
    little. Children (`sh` requests) start at the normal policy (SCHED_RESET_ON_FORK)."""
    def __enter__(self):
        try:
            os.sched_setscheduler(0, os.SCHED_FIFO | os.SCHED_RESET_ON_FORK, os.sched_param(20))
        except OSError as x:
            print(f"agent: gestures at the normal priority: SCHED_FIFO refused: {x}", file=sys.stderr, flush=True)

    def __exit__(self, *exc):
        try:
            os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
        except OSError:
            pass


def notify_ready():
    path = os.environ.get("NOTIFY_SOCKET")
    if not path:
        return
    if path.startswith("@"):
        path = "\0" + path[1:]
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.sendto(b"READY=1", path)
    s.close()


def main():
    params = boot_params(open("/proc/cmdline").read())
    kind, max_x, max_y = touch_kind(params)
    kiosk_dropin(params)
    touch = Touch(make_touchscreen(kind, max_x, max_y), kind)
    # Let udev see the device before anything that wants it starts.
    subprocess.run(["udevadm", "settle", "-t", "10"], check=False)
    path = params.get("vmtest.ctl", "/dev/ttyS1")
    # A virtio-serial port's name link comes from udev, when its module has loaded.
    for _ in range(600):
        if os.path.exists(path):
            break
        time.sleep(0.1)
    port = os.open(path, os.O_RDWR | os.O_NOCTTY)
    if os.isatty(port):     # a serial line; a virtio-serial port is no terminal
        tty.setraw(port)
        attrs = termios.tcgetattr(port)
        attrs[4] = attrs[5] = termios.B115200
        termios.tcsetattr(port, termios.TCSANOW, attrs)
    notify_ready()
    reader = os.fdopen(port, "rb", buffering=0)
    boot_id = open("/proc/sys/kernel/random/boot_id").read().strip()

    def send(line):
        data = line.encode() + b"\n"
        while data:
            data = data[os.write(port, data):]

    send(f"HELLO {boot_id}")
    buf = b""
    while True:
        chunk = reader.read(4096)
        if not chunk:
            time.sleep(0.05)
            continue
        buf += chunk
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            parts = line.strip().split(b" ")
            if len(parts) != 3 or parts[0] != b"REQ":
                if line.strip() == b"PING":
                    send(f"HELLO {boot_id}")
                continue
            rid = parts[1].decode()
            try:
                req = json.loads(base64.b64decode(parts[2]))
                if "sh" in req:
                    try:
                        p = subprocess.run(["/bin/sh", "-c", req["sh"]], capture_output=True,
                                           timeout=req.get("timeout", 60), stdin=subprocess.DEVNULL)
                        res = {"rc": p.returncode, "out": p.stdout.decode(errors="replace"),
                               "err": p.stderr.decode(errors="replace")}
                    except subprocess.TimeoutExpired as x:
                        res = {"rc": 124, "out": (x.stdout or b"").decode(errors="replace"),
                               "err": f"timed out after {req.get('timeout', 60)} s"}
                elif "touch" in req:
                    stamps = [] if req.get("stamps") else None
                    with panel_timing():
                        touch.play(req["touch"], stamps)
                    res = {"rc": 0} if stamps is None else {"rc": 0, "stamps": stamps}
                else:
                    res = {"rc": 64, "err": f"unknown request {req!r}"}
            except Exception as x:  # the host gets the error, the agent goes on
                res = {"rc": 70, "err": f"agent: {type(x).__name__}: {x}"}
            send(f"RES {rid} " + base64.b64encode(json.dumps(res).encode()).decode())


if __name__ == "__main__":
    sys.exit(main())
