#!/usr/bin/env python3
"""The host side of script/vm-test: boots the image in QEMU and checks both kiosk units.

Run by script/vm-test (which builds the image and the headless reference pictures); it
prints one line per check, `PASS`, `FAIL` or `XFAIL` (a failure of a known, named bug),
and exits 1 when any check FAILs. Screenshots are QEMU monitor `screendump`s: what the
virtio-gpu scanout shows, the real picture. The guest is driven through the agent on its
second serial port (script/vm/agent.py): shell commands and touch on a uinput panel.
"""
import argparse, base64, datetime, json, os, re, socket, statistics, subprocess, sys, time, zlib

import numpy as np

import latency

W, H = 720, 1280

# The gestures whose CPU is measured, the same on every unit and every run: a pull past
# the threshold, held and released (a refresh), a fling, a fling back four times as fast to
# reach the top again (no longer than the fling's drag: where the fling was lost it cannot
# turn into a pull), a tap. About 14 s.
CPU_GESTURES = [
    ["down", 0, 360, 200], ["move", 0, 360, 800, 800], ["wait", 300], ["up", 0], ["wait", 3000],
    ["down", 0, 360, 1000], ["move", 0, 360, 600, 400], ["up", 0], ["wait", 3000],
    ["down", 0, 360, 300], ["move", 0, 360, 700, 100], ["up", 0], ["wait", 4000],
    ["down", 0, 360, 640], ["wait", 60], ["up", 0], ["wait", 1500],
]
CPU_RUNS = 3
CPU_BAR = 1.3
# A matrix boot's CPU is compared with the first boot's kiosk's, minutes and a reboot
# apart; TCG's speed moves with the host's load by half within minutes (unturned 5.5-10.3
# ms a frame in four boots, 2026-12-03), and the raw ratio with it: 1.36x (qxl) and 1.31x
# (usb-tablet, on the kiosk's own machine and screen) in two CI runs whose every other
# figure was in line. So each side is also timed on a fixed piece of work in its guest,
# right before and after its gestures: `overscroll replay` of the same gestures at the
# kiosk's size (the app's model and drawing, no display), and the bar is on the CPU in
# units of that probe. The raw ratio is printed beside it.
PROBE_SCRIPT = "/run/vm-cpu-probe.txt"
# The matrix's same-machine comparisons (MATRIX's `compare`): runs a side, medians. Three,
# played A B B A A B: under TCG two runs of one side differed by up to 27 % (rotate 90:
# 5.34 and 4.20 ms a frame, one boot, 2026-12-03), and with two a side one build's ratio
# moved from 1.07x to 1.44x; a median of three drops the odd run.
CPU_MATRIX_RUNS = 3
# A list at rest: the app's CPU over this many seconds, at most this share of a core.
IDLE_S, IDLE_BAR = 10, 0.03
# What the app must not map on a DRM device without a GPU driver (issue 40): Mesa's GL
# stack (libGL*, libGLESv2 and libGLX too, libEGL*, libLLVM*, libgallium*, a */dri/*_dri.so
# driver, a */gbm/*_gbm.so GBM backend). libgbm.so.1 itself is not: Debian 12's
# libSDL2-2.0.so.0 has it as DT_NEEDED, so every SDL program maps it; without a backend
# mapped no GBM device was made. Any other graphics library mapped is recorded beside.
GL_LIBS = ("libGL", "libEGL", "libLLVM", "libgallium")
GRAPHICS_LIBS = GL_LIBS + ("libgbm", "libglapi", "libvulkan", "libdrm", "libwayland", "libX11")


def gl_stack(paths):
    """The GL stack among mapped paths (GL_LIBS' words), and every graphics library."""
    gl = sorted({os.path.basename(p) for p in paths if os.path.basename(p).startswith(GL_LIBS)
                 or ("/dri/" in p and p.endswith("_dri.so")) or ("/gbm/" in p and p.endswith("_gbm.so"))})
    graphics = sorted({os.path.basename(p) for p in paths if os.path.basename(p).startswith(GRAPHICS_LIBS)
                       or p.endswith(("_dri.so", "_gbm.so"))})
    return gl, graphics


def gbm_words(gl, graphics):
    # Mesa 22 (Debian 12) has its GBM backend inside the *_dri.so driver, later Mesa in a
    # gbm/*_gbm.so: either is in `gl`, and with neither mapped no GBM device was made.
    return ("libgbm.so.1 mapped by libSDL2's DT_NEEDED, no GBM device made (no backend mapped)"
            if any(n.startswith("libgbm.so.1") for n in graphics) and not gl else "")


# The processes whose CPU is counted: the app, and on the cage path the compositor and
# its X server (started when an X client asks: none does here, so usually 0).
CPU_PROCESSES = ("overscroll-app", "cage", "Xwayland")
ME = "vm-test"      # the name its lines start with (--me: script/bench-kiosk's)

# script/bench-kiosk's Qt Quick peer (the image's qt variant): Qt 6's `qml` on the linuxfb
# platform presenting through DRM dumb buffers, Qt Quick's software renderer. Run in the
# guest, detached from the agent: CPU (every thread, from wait4) and wall time to its exit.
QT_RUN = r"""
import json, os, subprocess, sys, time
qml, out = sys.argv[1], sys.argv[2]
env = dict(os.environ, QT_QPA_PLATFORM="linuxfb", QT_QPA_FB_DRM="1", QT_QUICK_BACKEND="software",
           QT_QUICK_CONTROLS_STYLE="Material", XDG_RUNTIME_DIR="/run/qt-bench")
os.makedirs("/run/qt-bench", mode=0o700, exist_ok=True)
t = time.monotonic()
qml_bin = next(b for b in ("/usr/lib/qt6/bin/qml", "/usr/bin/qml6", "/usr/bin/qml") if os.path.exists(b))
p = subprocess.Popen([qml_bin, qml], cwd="/usr/local/lib/vm-test/qml", env=env, stdin=subprocess.DEVNULL)
_, status, ru = os.wait4(p.pid, 0)
with open(out + ".tmp", "w") as f:
    json.dump({"cpu_s": round(ru.ru_utime + ru.ru_stime, 2), "wall_s": round(time.monotonic() - t, 2),
               "exit": os.waitstatus_to_exitcode(status), "peak_rss_mib": round(ru.ru_maxrss / 1024, 1), "pid": p.pid}, f)
os.rename(out + ".tmp", out)
"""
QT_RUNS = 3


# The matrix: the kiosk unit (KMSDRM) on the other displays and panels kiosks are built
# from, each with the list at rest, a pull that refreshes, a fling and a tap checked on the
# scanout, and its CPU. One image serves every boot: a boot is QEMU's devices and firmware
# and words on the kernel line, which the guest's agent reads (script/vm/agent.py: the
# panel it makes, the boot's kiosk.toml drop-in). `same_boot`: on the first boot's machine
# instead, the device hot-added and the unit restarted with the drop-in (no reboot).
#   screen: the scanout's pixels; rotate: the kiosk's `rotate` (the app's own size is the
#   screen turned); touch: the panel (agent.py's vmtest.touch, or "tablet": QEMU's
#   usb-tablet, a USB HID absolute pointer driven over QMP, axes 0..32767).
#   compare: issue 48's CPU bars are on one machine (rotated and unrotated on the same
#   panel; fbdev and DRM at the same size): after the boot's checks the unit is started
#   again, on the same boot, as `compare` says (`sh` run first with the unit stopped, the
#   drop-in's `kiosk` settings, `rotate`), the same gestures played on both, and the
#   boot's `cpu` check is its CPU per frame over the other's (at most CPU_BAR).
ROWS = "/etc/overscroll/vm-rows.txt"
MATRIX = {
    "usb-tablet": {"screen": (W, H), "touch": "tablet", "kiosk": {"mouse": "true", "content": ROWS}, "same_boot": True},
    "bochs-single-rot90": {"qemu": ["-device", "VGA,edid=on,xres=1280,yres=800"], "screen": (1280, 800), "rotate": 90,
                           "touch": "single:4095:4095", "kiosk": {"rotate": "90", "content": ROWS},
                           "compare": {"what": "unrotated", "rotate": 0, "kiosk": {"content": ROWS}}},
    # QEMU's standard VGA at a 5:4 panel's 1280x1024: bochs-drm's 16 MiB, with fbcon's
    # 5.2 MB in it, does not hold two buffers with an eighth spare: the ring's last step
    # (RingRoom's least, one spare row) shows it; before, the first flip ended the run.
    "bochs-1280x1024": {"qemu": ["-device", "VGA,edid=on,xres=1280,yres=1024"], "screen": (1280, 1024),
                        "touch": "multi:4095:4095", "kiosk": {"content": ROWS}},
    # The same VGA at 1920x1080: fbcon's 8.3 MB leaves room for one buffer, not two even
    # of one spare row: after the least, one buffer drawn while it is shown (the first
    # flip ended the run before).
    "bochs-1920x1080": {"qemu": ["-device", "VGA,edid=on,xres=1920,yres=1080"], "screen": (1920, 1080),
                        "touch": "multi:4095:4095", "kiosk": {"content": ROWS}},
    # QXL (SPICE's display, a VM's default in virt-manager and Proxmox): its plane update
    # shows every buffer from its first pixel, so no ring; with a panel of the kernel's
    # multitouch protocol A (no slots: libinput reads it through mtdev).
    "qxl-protocol-a": {"qemu": ["-device", "qxl-vga,xres=1280,yres=1024"], "screen": (1280, 1024),
                       "touch": "protocol-a:4095:4095", "kiosk": {"content": ROWS}},
    # QEMU's Cirrus VGA (cirrus-qemu): 4 MiB of video memory and buffers in system memory
    # that the driver copies into it, the damage only (a shadow-buffered driver, as
    # simpledrm, udl and gud are; Debian's kernels build no simpledrm); with a panel that
    # reports a pen on the glass (libinput's tablet tool), as many resistive ones do.
    "cirrus-pen": {"qemu": ["-device", "cirrus-vga"], "screen": (1024, 768),
                   "touch": "pen:4095:4095", "kiosk": {"content": ROWS}},
    # OVMF's GOP takes the VGA's EDID mode (720x1280); with bochs-drm blacklisted the
    # kernel has efifb's /dev/fb0 and no /dev/dri (Debian 12 builds no simpledrm).
    # The EDID's mode at 60 Hz: efifb tells no refresh and the app paces it at 60 Hz,
    # where bochs-drm took QEMU's default 75 Hz and drew a quarter more frames over the
    # same gestures, each moving the list less (CPU a frame is compared like with like).
    "fbdev": {"qemu": ["-bios", "/usr/share/ovmf/OVMF.fd", "-device", "VGA,edid=on,xres=720,yres=1280,refresh_rate=60000"],
              "append": "modprobe.blacklist=bochs", "screen": (W, H), "touch": f"multi:{W - 1}:{H - 1}", "kiosk": {"content": ROWS},
              # The same VGA and mode on DRM: bochs-drm loaded by hand (the blacklist is
              # for udev's aliases) takes the screen over from efifb.
              "compare": {"what": "DRM (bochs-drm, the same VGA)", "kiosk": {"content": ROWS}, "opens": "/dev/dri/card", "one_way": True,
                          "sh": "modprobe bochs && for i in $(seq 100); do [ -e /dev/dri/card0 ] && break; sleep 0.2; done; ls /dev/dri"}},
    # The same efifb turned by 270 (the app 1280x720), with a single-touch panel: a
    # framebuffer pans by rows only, so the ring, which would lie along the turned
    # screen's columns, is pinned to its top and the frame written turned where it
    # changed. Drawn whole and turned by SDL before: 123 ms of CPU a frame here against
    # 3.8 unturned, and 22 frames of momentum to a flick.
    "fbdev-rot270": {"qemu": ["-bios", "/usr/share/ovmf/OVMF.fd", "-device", "VGA,edid=on,xres=720,yres=1280,refresh_rate=60000"],
                     "append": "modprobe.blacklist=bochs", "screen": (W, H), "rotate": 270, "touch": "single:4095:4095",
                     "kiosk": {"rotate": "270", "content": ROWS}},
}
# The boots `script/test` runs (its default): issue 48's panels beside the first boot's
# virtio-gpu multitouch screen (a USB HID absolute panel, bochs-drm with a single-touch
# panel turned by 90, an fbdev-only machine). The others (`--matrix all`,
# VM_TEST_MATRIX=all) are 8-10 minutes more under TCG, past CI's 45 minutes with the rest:
# run before a release and after a change to a presenter (docs/testing.md).
CI_BOOTS = ("usb-tablet", "bochs-single-rot90", "fbdev")


def logical(spec):
    """The app's own size on a boot: its screen, turned by its `rotate`."""
    sw, sh = spec.get("screen", (W, H))
    return (sh, sw) if spec.get("rotate", 0) in (90, 270) else (sw, sh)


def chosen_boots(text):
    """The boots a --matrix (or --ref-sizes) names: "all", or names from MATRIX; and the
    names it has that MATRIX does not."""
    names = list(MATRIX) if text.strip() == "all" else text.split()
    return names, [n for n in names if n not in MATRIX]


def unknown_boots(unknown):
    return f"no boot named {' '.join(unknown)} (the boots: {' '.join(MATRIX)}, or all)"


def ref_sizes(names):
    """The app sizes, besides 720x1280, the boots `names` compare their scanouts at: each
    needs its references drawn headless (script/vm-test: `--ref-sizes`), the list tall
    enough for all its rows at that width too. A boot added to MATRIX gets them with it."""
    return sorted({logical(MATRIX[n]) for n in names} - {(W, H)})


# The cage unit's boot: virtio-gpu alone, as before the matrix (no USB controller).
CAGE_BOOT = {"qemu": ["-device", f"virtio-gpu-pci,xres={W},yres={H}"]}
TABLET_MAX = 32767
TABLET_PRESS_S = 0.3    # a tablet's press before its moves: read by the guest first (Panel.play)
ROW_PT = 56         # a row's height at scale 1 (the tap's row, the fling's picture)
TALL = 2600         # the whole list after a refresh (43 rows) drawn headless on a screen this tall
REFRESH = "down 360 200\nmove 360 800 800ms\nwait 1500ms\nup\nwait 6s\n"   # script/vm-test's $refresh


def kernel_line(spec):
    """The kernel command line of a boot: the boot's own words, and what the agent reads
    (script/vm/agent.py: the panel it makes, the kiosk.toml drop-in it writes)."""
    # loglevel=5 rather than quiet: the kernel's banner ("Linux version", a notice) and
    # its warnings reach the console, so a kernel that never started shows as an
    # empty console (hello), not as an agent that does not answer.
    words = [f"root=/dev/vda rw console={ARCH['console']} consoleblank=0 loglevel=5 systemd.show_status=0"]
    if ARCH["ctl_dev"]:
        words.append(f"vmtest.ctl={ARCH['ctl_dev']}")
    if spec.get("append"):
        words.append(spec["append"])
    if spec.get("touch") and spec["touch"] != "tablet":
        words.append(f"vmtest.touch={spec['touch']}")
    if spec.get("kiosk") and not spec.get("same_boot"):
        words.append("vmtest.kiosk=" + ",".join(f"{k}:{v}" for k, v in spec["kiosk"].items()))
    return " ".join(words)


# The app's VelocityTracker (OverscrollKit/Physics): a pause longer than maxGap before the
# lift is a finger that stopped, and a fling needs minSamples moves in its horizon.
TRACKER_MAX_GAP_MS, TRACKER_MIN_SAMPLES, TRACKER_HORIZON_MS = 40, 3, 100


def flick_pause(stamps, move, lift):
    """(the longest pause in ms between the flick's packets, its moves) over the tracker's
    horizon before the lift, from the agent's kernel stamps ([step index, µs]; `move` and
    `lift` are the steps' indices); None without stamps (QEMU's tablet)."""
    moves = sorted(t for k, t in stamps if k == move)
    ups = [t for k, t in stamps if k == lift]
    if not moves or not ups:
        return None
    window = [t for t in moves if t >= moves[-1] - TRACKER_HORIZON_MS * 1000] + [ups[0]]
    return max((b - a) / 1000 for a, b in zip(window, window[1:])), len(window) - 1


class Panel:
    """Touch on a boot's panel, given in the app's own points (its logical screen): turned
    to the panel's orientation as `rotate` turns the picture (clockwise), scaled to the
    panel's units, and played by the guest's agent (uinput) or, for QEMU's usb-tablet,
    from here over QMP at the same 100 Hz."""
    def __init__(self, vm, spec):
        self.vm, self.rotate = vm, spec.get("rotate", 0)
        # Where the tablet is, across play()s: every report QEMU sends carries the
        # position, a button's too; a release sent anywhere else is a jump there first
        # (a pull released at 0,0 was a drag back past the top, never a refresh).
        self.at = (0, 0)
        self.screen = spec.get("screen", (W, H))
        kind = spec.get("touch", f"multi:{W - 1}:{H - 1}")
        self.tablet = kind == "tablet"
        self.max = (TABLET_MAX, TABLET_MAX) if self.tablet else tuple(int(v) for v in kind.split(":")[1:])
        self.logical = logical(spec)

    def units(self, x, y):
        lw, lh = self.logical
        px, py = {0: (x, y), 90: (lh - 1 - y, x), 180: (lw - 1 - x, lh - 1 - y), 270: (y, lw - 1 - x)}[self.rotate]
        return round(px * self.max[0] / (self.screen[0] - 1)), round(py * self.max[1] / (self.screen[1] - 1))

    def fitted(self, steps):
        """`steps` (in points on a 1280-point-tall screen, as CPU_GESTURES) on this panel's
        app: heights scaled to its own (a landscape one unturned is 800 tall)."""
        k = self.logical[1] / H
        return [[st[0], st[1], st[2], round(st[3] * k), *st[4:]] if st[0] in ("down", "move") else st for st in steps]

    def play(self, *steps, stamps=False):
        """Plays `steps`; with `stamps`, returns the uinput panel's packets' kernel times
        ([step index, µs]); QEMU's tablet has none to give (an empty list)."""
        out = []
        for st in steps:
            if st[0] in ("down", "move"):
                st = [st[0], st[1], *self.units(st[2], st[3]), *st[4:]]
            out.append(st)
        if not self.tablet:
            return self.vm.touch(*out, stamps=stamps)
        at = self.at
        for k, st in enumerate(out):
            if st[0] == "wait":
                time.sleep(st[1] / 1000)
            elif st[0] == "down":
                at = (st[2], st[3])
                self.send(at, True)
                # QEMU's HID queue folds a move into the report before it that the guest
                # has not read yet when the buttons are the same: moves right after the
                # press would move the press itself (under TCG it was read 90 ms late,
                # and a pull from 200 began at 268). A finger lands, then moves.
                if k + 1 < len(out) and out[k + 1][0] == "move":
                    time.sleep(TABLET_PRESS_S)
            elif st[0] == "up":
                self.send(at, False)
            elif st[0] == "move":
                n, t0 = max(1, int(st[4] / 10)), time.monotonic()
                for i in range(1, n + 1):
                    time.sleep(max(0, t0 + st[4] / 1000 * i / n - time.monotonic()))
                    self.send((round(at[0] + (st[2] - at[0]) * i / n), round(at[1] + (st[3] - at[1]) * i / n)))
                at = (st[2], st[3])
        self.at = at
        return []

    def send(self, at, button=None):
        events = [{"type": "abs", "data": {"axis": a, "value": v}} for a, v in zip(("x", "y"), at)]
        if button is not None:
            events.append({"type": "btn", "data": {"down": button, "button": "left"}})
        self.vm.qmp("input-send-event", events=events)


# The machine, by --arch. amd64: a q35 PC, the console on its first 16550 (ttyS0), the
# agent's channel on a second, ISA one (ttyS1). arm64: QEMU's `virt` board, which has no
# ISA bus: the console on its PL011 (ttyAMA0), the channel a virtio-serial port (the agent
# opens the device the kernel line's vmtest.ctl names).
ARCHES = {
    "amd64": {"qemu": ["qemu-system-x86_64", "-machine", "q35"], "console": "ttyS0",
              "ctl": ["-device", "isa-serial,chardev=ctl"], "ctl_dev": None},
    "arm64": {"qemu": ["qemu-system-aarch64", "-machine", "virt"], "console": "ttyAMA0",
              "ctl": ["-device", "virtio-serial-pci", "-device", "virtserialport,chardev=ctl,name=vmtest.ctl"],
              "ctl_dev": "/dev/virtio-ports/vmtest.ctl"},
}
ARCH = ARCHES["amd64"]
# The arm64 machine's one boot (Run.arm64): the KMSDRM unit on virtio-gpu at 720x1280
# with the multitouch panel, the reload's rows, checked as a boot of the matrix.
ARM64_BOOT = {"qemu": ["-device", f"virtio-gpu-pci,xres={W},yres={H}"], "screen": (W, H),
              "touch": f"multi:{W - 1}:{H - 1}", "kiosk": {"content": ROWS}}


# ---------------------------------------------------------------- pictures

def read_ppm(path):
    data = open(path, "rb").read()
    # The header's four fields, then exactly one whitespace byte: the pixels may begin
    # with bytes that look like whitespace.
    fields, i = [], 0
    while len(fields) < 4:
        while data[i:i + 1].isspace():
            i += 1
        j = i
        while not data[j:j + 1].isspace():
            j += 1
        fields.append(data[i:j])
        i = j
    assert fields[0] == b"P6", f"{path}: not a binary PPM"
    w, h = int(fields[1]), int(fields[2])
    return np.frombuffer(data[i + 1:i + 1 + w * h * 3], dtype=np.uint8).reshape(h, w, 3)


def write_png(path, img):
    h, w, _ = img.shape
    raw = b"".join(b"\x00" + img[y].tobytes() for y in range(h))

    def chunk(kind, body):
        c = kind + body
        return len(body).to_bytes(4, "big") + c + zlib.crc32(c).to_bytes(4, "big")
    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", w.to_bytes(4, "big") + h.to_bytes(4, "big") + b"\x08\x02\x00\x00\x00")
           + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))
    with open(path, "wb") as f:
        f.write(png)


def compare(shot, ref, top=0, bottom=None):
    """How far the screenshot is from the headless reference in rows [top, bottom).
    GL and the CPU renderer round antialiased edges differently and a glyph may sit half a
    pixel apart, so a pixel matches when some pixel within one of the same place in the
    other picture is within 20 in every channel. Two shares: of all pixels (the list's
    background is dark, about 30: a black screen misses everywhere), and of the text's
    ink (pixels brighter than 100 in either picture: a list drawn at another offset, or
    other rows, misses there). Returns (all, ink, flat)."""
    a = shot[top:bottom].astype(np.int16)
    b = ref[top:bottom].astype(np.int16)

    def miss(x, y):
        best = np.full(x.shape[:2], 255, dtype=np.int16)
        pad = np.pad(y, ((1, 1), (1, 1), (0, 0)), mode="edge")
        for dy in (0, 1, 2):
            for dx in (0, 1, 2):
                shifted = pad[dy:dy + x.shape[0], dx:dx + x.shape[1]]
                best = np.minimum(best, np.abs(x - shifted).max(axis=2))
        return best > 20
    miss_a, miss_b = miss(a, b), miss(b, a)
    ink_a, ink_b = a.max(axis=2) > 100, b.max(axis=2) > 100
    ink = int(ink_a.sum() + ink_b.sum())
    ink_miss = float((miss_a & ink_a).sum() + (miss_b & ink_b).sum()) / max(1, ink)
    every = float((miss_a | miss_b).mean())
    flat = int(shot[top:bottom].reshape(-1, 3).std(axis=0).max()) < 4
    return every, ink_miss, flat


def verdict(result, tol=0.005, ink_tol=0.02):
    every, ink, flat = result
    ok = every <= tol and ink <= ink_tol and not flat
    text = f"{every:.2%} of pixels and {ink:.1%} of the text's ink differ from the headless frame"
    return ok, text + (" (the screen is flat: black?)" if flat else "")


# ---------------------------------------------------------------- the VM

class VM:
    def __init__(self, args):
        self.args = args
        self.work = args.work
        self.spec = {}          # the boot's devices, firmware and kernel line (MATRIX)
        self.screen = (W, H)
        self.boots = 1
        self.mon = None
        self.qmp_sock = None
        self.ctl = None
        self.buf = b""
        self.rid = 0
        self.proc = None

    def start(self, spec=None):
        """Powers the machine on: today's (virtio-gpu at 720x1280, a USB controller for a
        hot-added panel) or a boot of the matrix (spec: its display device and firmware,
        the kernel line's extra words, the agent's panel and kiosk settings)."""
        a = self.args
        self.spec = spec or {}
        self.screen = self.spec.get("screen", (W, H))
        display = self.spec.get("qemu") or ["-device", f"virtio-gpu-pci,xres={W},yres={H}", "-device", "qemu-xhci"]
        append = kernel_line(self.spec)
        cmd = [*ARCH["qemu"], "-m", "2048", "-smp", "2",
               *a.accel.split(), "-kernel", a.kernel, "-initrd", a.initrd,
               "-append", append,
               "-drive", f"file={a.disk},if=virtio,format=qcow2",
               *display,
               "-qmp", f"unix:{self.work}/qmp.sock,server=on,wait=off",
               "-display", "none", "-nic", "none", "-no-user-config", "-nodefaults",
               # The clock years behind at boot, as on a board without a battery-backed RTC.
               "-rtc", f"base={a.rtc},clock=host", "-pidfile", f"{self.work}/qemu.pid",
               "-serial", f"file:{self.work}/console.log",
               "-chardev", f"socket,id=ctl,path={self.work}/ctl.sock,server=on,wait=off",
               *ARCH["ctl"],
               "-monitor", f"unix:{self.work}/mon.sock,server,nowait",
               # A reboot ends this QEMU and reboot() starts a fresh one on the same disk:
               # under TCG on a loaded host, a reset after the KMSDRM kiosk's llvmpipe runs
               # hung the next boot's udev for minutes (soft lockups), three times of three.
               "-no-reboot"]
        self.proc = subprocess.Popen(cmd, stdout=open(f"{self.work}/qemu.log", "w"), stderr=subprocess.STDOUT)
        for _ in range(100):
            if os.path.exists(f"{self.work}/mon.sock") and os.path.exists(f"{self.work}/ctl.sock"):
                break
            if self.proc.poll() is not None:
                raise SystemExit(f"{ME}: FAIL: qemu exited {self.proc.returncode}: {open(f'{self.work}/qemu.log').read()[-500:]}")
            time.sleep(0.1)
        self.mon = socket.socket(socket.AF_UNIX)
        self.mon.connect(f"{self.work}/mon.sock")
        self.mon.settimeout(30)
        self._mon_read()
        self.ctl = socket.socket(socket.AF_UNIX)
        self.ctl.connect(f"{self.work}/ctl.sock")

    def reboot(self, timeout=120, spec=None):
        """`systemctl reboot` in the guest, then the machine powered on again (as `spec`
        says: the matrix's next boot, or today's)."""
        try:
            self.sh("systemctl reboot", 10)
        except (TimeoutError, RuntimeError):
            pass            # the agent may go before it answers
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            raise SystemExit(f"{ME}: FAIL: the guest did not reboot within {timeout} s (console: {self.work}/console.log)")
        self._power_on_again(spec, f"console-boot{self.boots}.log")

    def _power_on_again(self, spec, console_kept):
        """After QEMU ended: its sockets closed, the console kept as `console_kept`, and a
        fresh QEMU started on the same disk."""
        for s in (self.mon, self.ctl, self.qmp_sock):
            if s:
                s.close()
        self.qmp_sock = None
        for f in ("mon.sock", "ctl.sock", "qmp.sock"):
            if os.path.exists(f"{self.work}/{f}"):
                os.unlink(f"{self.work}/{f}")
        os.rename(f"{self.work}/console.log", f"{self.work}/{console_kept}")
        self.boots += 1
        self.buf = b""
        self.start(spec)

    def _kernel_stalled(self, since):
        """The console's last line when it holds only the kernel's own lines ("[   0.92] …":
        no initramfs, no systemd yet) and has not grown for `--kernel-stall` seconds; else None.
        Under TCG with two CPUs a guest kernel now and then stops for good while it brings
        up its second CPU (2026-12-05: at 0.93 s, after the MTRR lines, for 300 s), before
        anything of the image or the app runs. (`--kernel-stall`: a TCG boot on a loaded
        host prints the kernel's next line within seconds, 0.93 s to 4.5 s of guest time.)"""
        text = self.console_text()
        lines = text.strip().splitlines()
        if not lines or not all(l.startswith("[") for l in lines):
            return None
        size = len(text)
        if size != self._console_size:
            self._console_size, self._console_grew = size, time.monotonic()
        if time.monotonic() - max(self._console_grew, since) < self.args.kernel_stall:
            return None
        return lines[-1][:200]

    def stop(self):
        if self.proc and self.proc.poll() is None:
            try:
                self.monitor("quit")
            except Exception:
                pass
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()

    def _mon_read(self):
        out = b""
        while not out.endswith(b"(qemu) "):
            chunk = self.mon.recv(65536)
            if not chunk:
                break
            out += chunk
        return out

    def monitor(self, command):
        self.mon.sendall(command.encode() + b"\n")
        return self._mon_read().decode(errors="replace")

    def screendump(self, path):
        if os.path.exists(path):
            os.unlink(path)
        self.monitor(f"screendump {path}")
        for _ in range(100):
            if os.path.exists(path) and os.path.getsize(path) > self.screen[0] * self.screen[1] * 3:
                return read_ppm(path)
            time.sleep(0.05)
        raise RuntimeError("screendump wrote nothing")

    def qmp(self, command, **arguments):
        """A QMP command (the machine's JSON monitor): its "return", or RuntimeError."""
        if not self.qmp_sock:
            self.qmp_sock = socket.socket(socket.AF_UNIX)
            self.qmp_sock.connect(f"{self.work}/qmp.sock")
            self.qmp_sock.settimeout(30)
            self.qmp_file = self.qmp_sock.makefile("rb")
            self.qmp_file.readline()                            # the greeting
            self.qmp("qmp_capabilities")
        self.qmp_sock.sendall(json.dumps({"execute": command, "arguments": arguments}).encode() + b"\n")
        while True:
            msg = json.loads(self.qmp_file.readline())
            if "return" in msg:
                return msg["return"]
            if "error" in msg:
                raise RuntimeError(f"QMP {command}: {msg['error'].get('desc')}")

    def _line(self, timeout):
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            self.ctl.settimeout(left)
            try:
                chunk = self.ctl.recv(65536)
            except socket.timeout:
                raise TimeoutError
            if not chunk:
                raise RuntimeError("the command channel closed")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode(errors="replace").strip()

    def console_text(self):
        try:
            with open(f"{self.work}/console.log", "rb") as f:
                return f.read().decode(errors="replace")
        except FileNotFoundError:
            return ""

    def hello(self, timeout, not_boot=None):
        """Waits for the agent of a boot other than `not_boot`; returns its boot id. A guest
        whose console stays empty for `--console-timeout` seconds never started its kernel
        (a KVM that opens but hangs a guest, say): that is said at once, not as a missing
        agent after the whole boot timeout."""
        started = time.monotonic()
        deadline = started + timeout
        silent_bound = min(self.args.console_timeout, timeout)
        last_ping = 0
        self._console_size, self._console_grew = -1, started
        powered_again = False
        while time.monotonic() < deadline:
            stalled = None if powered_again else self._kernel_stalled(started)
            if stalled is not None:
                # Once a boot: the machine powered off and on again, the same disk and
                # kernel line; a second stop fails as any boot that never answers does.
                print(f"{ME}: the guest's kernel stopped before its initramfs (the console at {stalled!r} "
                      f"for {self.args.kernel_stall} s): powered off and booted again, once "
                      f"(console kept: {self.work}/console-boot{self.boots}-stalled.log)", flush=True)
                self.proc.kill()
                self.proc.wait()
                self._power_on_again(self.spec, f"console-boot{self.boots}-stalled.log")
                powered_again = True
                started = time.monotonic()
                deadline = started + timeout
                continue
            if time.monotonic() - started > silent_bound and not self.console_text().strip():
                raise SystemExit(f"{ME}: FAIL: the guest printed nothing on its console within {silent_bound} s: "
                                 f"its kernel did not start under {self.args.accel!r} (a KVM that cannot run a "
                                 f"guest? VM_TEST_ACCEL=tcg forces software emulation; console: {self.work}/console.log)")
            if time.monotonic() - last_ping > 3:
                # The socket's timeout is the last read's: a guest that reads nothing yet
                # (no agent, or QEMU starved on a loaded host) may hold a ping past it.
                try:
                    self.ctl.sendall(b"PING\n")
                except (TimeoutError, socket.timeout):
                    pass
                last_ping = time.monotonic()
            try:
                line = self._line(1)
            except TimeoutError:
                continue
            if line.startswith("HELLO ") and line[6:] != not_boot:
                return line[6:]
        last = (self.console_text().strip().splitlines() or [""])[-1][:200]
        raise SystemExit(f"{ME}: FAIL: the guest's agent did not answer within {timeout} s; the console's last "
                         f"line: {last!r} (console: {self.work}/console.log)")

    def request(self, req, timeout=90):
        self.rid += 1
        rid = str(self.rid)
        self.ctl.sendall(f"REQ {rid} ".encode() + base64.b64encode(json.dumps(req).encode()) + b"\n")
        deadline = time.monotonic() + timeout
        while True:
            line = self._line(max(0.1, deadline - time.monotonic()))
            parts = line.split(" ")
            if len(parts) == 3 and parts[0] == "RES" and parts[1] == rid:
                return json.loads(base64.b64decode(parts[2]))

    def sh(self, command, timeout=60):
        res = self.request({"sh": command, "timeout": timeout}, timeout + 10)
        return res["rc"], res.get("out", "") + res.get("err", "")

    def out(self, command, timeout=60):
        return self.sh(command, timeout)[1].strip()

    def touch(self, *steps, stamps=False):
        """Plays `steps` on the guest's panel; with `stamps`, returns each packet's kernel
        time as [step index, µs] (agent.py)."""
        res = self.request({"touch": list(steps), "stamps": stamps}, 60)
        if res["rc"] != 0:
            raise RuntimeError(res.get("err"))
        return res.get("stamps", [])


# ---------------------------------------------------------------- checks

class Checks:
    def __init__(self, xfail, strict):
        self.xfail = xfail          # check-name prefix -> the known bug
        self.strict = strict
        self.results = []

    def known(self, name):
        for key, bug in self.xfail.items():
            if re.fullmatch(key, name):
                return bug
        return None

    def record(self, name, ok, detail):
        bug = self.known(name)
        if ok:
            word = "PASS" if not bug else "PASS (listed as XFAIL, not hit here: " + bug + ")"
        elif bug and not self.strict:
            word = f"XFAIL ({bug})"
        else:
            word = "FAIL"
        self.results.append((name, word.split()[0]))
        print(f"{ME}: {word:5} {name}: {detail}", flush=True)
        return ok

    def failed(self):
        return [n for n, w in self.results if w == "FAIL"]


def csv_rows(text):
    lines = [l for l in text.splitlines() if l]
    if not lines:
        return []
    head = lines[0].split(",")
    rows = []
    for l in lines[1:]:
        cells = l.split(",")
        if len(cells) == len(head):
            rows.append(dict(zip(head, cells)))
    return rows


class Run:
    def __init__(self, args):
        self.args = args
        self.vm = VM(args)
        self.c = Checks(json.loads(args.xfail), args.strict)
        self.out = args.out
        self.refs = {}
        self.phase_started = time.monotonic()
        self.started = []
        self.current = None
        self.cpu = {"gestures": CPU_GESTURES}   # cpu.json: per unit, the runs and medians
        self.clk_tck = 0

    def ref(self, name, size=(W, H)):
        """A headless reference (script/vm-test drew it): NAME.ppm at 720x1280, else
        NAME-WxH.ppm at the app's own (logical) size."""
        file = name + ("" if tuple(size) == (W, H) else f"-{size[0]}x{size[1]}") + ".ppm"
        if file not in self.refs:
            self.refs[file] = read_ppm(os.path.join(self.args.refs, file))
        return self.refs[file]

    def shot(self, unit, name):
        img = self.vm.screendump(f"{self.vm.work}/shot.ppm")
        write_png(os.path.join(self.out, f"{unit}-{name}.png"), img)
        return img

    def settle(self, unit, name, ref, top=0, bottom=None, timeout=30, tol=0.005, rotate=0):
        """Screenshots until one matches the reference (or the time is up): the first
        frame may take seconds under emulation. Returns (ok, words). With `rotate`, the
        scanout of a turned screen is turned back (counter-clockwise by as much) to the
        app's own orientation, the headless reference's; the PNG kept is the scanout."""
        deadline = time.monotonic() + timeout
        while True:
            img = self.vm.screendump(f"{self.vm.work}/shot.ppm")
            turned = np.rot90(img, rotate // 90)
            if turned.shape != ref.shape:
                ok, text = False, f"the scanout is {img.shape[1]}x{img.shape[0]}, the reference {ref.shape[1]}x{ref.shape[0]} turned by {rotate}"
            else:
                ok, text = verdict(compare(turned, ref, top, bottom), tol)
            if ok or time.monotonic() > deadline:
                write_png(os.path.join(self.out, f"{unit}-{name}.png"), img)
                return ok, text + f"; {self.out}/{unit}-{name}.png"
            time.sleep(1)

    def frames(self, unit):
        run = self.latest_run()
        return csv_rows(self.vm.out(f"cat {run}/frames.csv")) if run else []

    def latest_run(self):
        """This start's run folder (check_runs saw it appear)."""
        return f"/var/lib/overscroll/reports/{self.current}" if self.current else None

    def runs(self):
        return set(self.vm.out("cd /var/lib/overscroll/reports 2>/dev/null && ls -1").split())

    def check_runs(self, name, when):
        """report-keep = 3 (the image's drop-in): the three runs started last are there,
        the others gone, by the order they started (the test knows it), not by their
        names (written by a clock that was years behind, then right)."""
        now = self.runs()
        new = sorted(now - set(self.started))
        self.started += new
        if new:
            self.current = new[-1]
        want = set(self.started[-3:])
        lost, extra = sorted(want - now), sorted(now - want)
        self.c.record(name, not lost and not extra and len(new) == 1,
                      f"after {when}: runs in the order they started: {' '.join(self.started)}; "
                      f"{len(new)} new; kept {len(now)} (report-keep 3)"
                      + (f"; deleted though among the last 3 started: {' '.join(lost)}" if lost else "")
                      + (f"; kept though older: {' '.join(extra)}" if extra else ""))

    def journal(self, unit, since_cursor=None):
        after = f"--after-cursor='{since_cursor}'" if since_cursor else ""
        return self.vm.out(f"journalctl -b -u {unit} -o cat --no-pager {after}")

    def cursor(self):
        return self.vm.out("journalctl -n 0 --show-cursor --no-pager | sed -n 's/^-- cursor: //p'")

    def wait(self, what, fn, timeout, step=0.5):
        deadline = time.monotonic() + timeout
        while True:
            v = fn()
            if v or time.monotonic() > deadline:
                return v
            time.sleep(step)

    def show(self, unit, *props):
        text = self.vm.out(f"systemctl show {unit} " + " ".join(f"-p {p}" for p in props))
        return dict(l.split("=", 1) for l in text.splitlines() if "=" in l)

    def phase(self, name):
        now = time.monotonic()
        print(f"{ME}: time: {name} after {now - self.phase_started:.0f} s", flush=True)
        self.phase_started = now

    def ready(self, unit):
        """Waits for the unit to be ready; its state, and its start lines in the journal."""
        c, u = self.c, unit.replace("overscroll-", "")
        # Ready: Type=notify units are active only after READY=1 (the app sends it after its first frame).
        self.wait("active", lambda: (lambda s: s if s.get("SubState") == "running" and s.get("ActiveState") == "active" else None)(
            self.show(unit, "ActiveState", "SubState")), 120, 1)
        info = self.show(unit, "ActiveState", "SubState", "NRestarts", "MainPID", "StatusErrno", "Result")
        c.record(f"{u}.ready", info.get("ActiveState") == "active" and info.get("SubState") == "running" and info.get("NRestarts") == "0",
                 f"{unit}: {info.get('ActiveState')} ({info.get('SubState')}), restarts {info.get('NRestarts')}, result {info.get('Result')}")
        log = self.journal(unit)
        started = [l for l in log.splitlines() if "started: video" in l]
        c.record(f"{u}.journal-started", bool(started),
                 (started[0] if started else "no 'started:' line in journalctl -u " + unit + "; its last lines: " + " | ".join(log.splitlines()[-4:])))
        return info, started

    # ---- one unit, from its start at boot
    def unit_checks(self, unit):
        vm, c = self.vm, self.c
        u = unit.replace("overscroll-", "")
        boot_year = int(vm.out("date -u +%Y"))
        c.record(f"{u}.clock-behind", boot_year <= time.gmtime().tm_year - 2,
                 f"the guest booted with its clock at {vm.out('date -u +%FT%T')} (the host's year is {time.gmtime().tm_year})")

        info, started = self.ready(unit)
        main_pid = info.get("MainPID")

        # Report folders: kept by the order runs started, whatever their names say.
        self.check_runs(f"{u}.reports-kept", "this start")

        # The list on the screen before any touch.
        ok, text = self.settle(u, "idle", self.ref("idle"))
        c.record(f"{u}.idle-screen", ok, text)
        self.maps(unit, started[0] if started else "")

        # Reload with changed content: the new rows without a touch.
        cur = self.cursor()
        vm.sh("printf 'content = \"/etc/overscroll/vm-rows.txt\"\\n' > /etc/overscroll/kiosk.toml.d/60-vm-rows.toml && "
              f"systemctl reload {unit}")
        ok, text = self.settle(u, "reloaded", self.ref("reloaded"))
        rl = [l for l in self.journal(unit, cur).splitlines() if "reloaded" in l or "refused" in l]
        c.record(f"{u}.reload", ok and any("changed content" in l for l in rl),
                 f"journal: {' | '.join(rl) if rl else 'no reload line'}; the new rows: {text}")

        # A pull by touch: the arc and the status line mid-pull (armed), then the refresh.
        before = len(self.frames(unit))
        cur = self.cursor()
        vm.touch(["down", 0, 360, 200], ["move", 0, 360, 800, 800], ["wait", 1500])
        ok, text = self.settle(u, "pull", self.ref("pull"), 0, 420, timeout=8)
        c.record(f"{u}.pull-arc", ok, f"mid-pull, the top 420 rows (arc, 'Release to refresh'): {text}")
        vm.touch(["up", 0])
        line = self.wait("refreshed", lambda: [l for l in self.journal(unit, cur).splitlines() if "refreshed:" in l or "refresh failed" in l], 30)
        # frames.csv is streamed: its rows may come a moment after the journal's line.
        fr = self.wait("rows", lambda: (lambda f: f if any(r.get("rows") != f[0].get("rows") for r in f) else None)(
            self.frames(unit)[before:] or [{}]), 15, 1) or self.frames(unit)[before:]
        states = {r.get("refresh_state") for r in fr}
        rows = [int(r["rows"]) for r in fr if r.get("rows", "").isdigit()]
        c.record(f"{u}.refresh", bool(line) and "refreshed:" in line[0] and "armed" in states and rows and max(rows) == min(rows) + 3,
                 f"journal: {line[0] if line else 'no outcome line'}; states {sorted(s for s in states if s)}; rows {min(rows) if rows else '?'} -> {max(rows) if rows else '?'}")
        ok, text = self.settle(u, "refreshed", self.ref("refreshed"), timeout=20)
        c.record(f"{u}.new-rows", ok, f"after the refresh, three new rows on top: {text}")

        # The clock stepped forward (to 12:00 today, years ahead) during a reload's read.
        target = datetime.datetime.now(datetime.timezone.utc).replace(hour=12, minute=0, second=0, microsecond=0)
        cur = self.cursor()
        vm.sh(f"systemctl reload {unit} & date -u -s @{int(target.timestamp())} >/dev/null; wait")
        clock = vm.out("date -u +%FT%T")
        time.sleep(2)
        # A refresh now: the status line's time is the clock's, 12:00.
        vm.touch(["down", 0, 360, 200], ["move", 0, 360, 800, 800], ["wait", 300], ["up", 0])
        self.wait("refreshed", lambda: [l for l in self.journal(unit, cur).splitlines() if "refreshed:" in l], 30)
        time.sleep(3)
        vm.touch(["down", 0, 360, 200], ["move", 0, 360, 400, 500], ["wait", 1500])
        ok, text = self.settle(u, "status-time", self.ref("status"), 60, 100, timeout=8)
        vm.touch(["up", 0])
        c.record(f"{u}.status-time", ok, f"clock stepped to {clock}; a short pull after a refresh, the status line (rows 60-100: 'Pull to refresh · updated 12:00'): {text}")
        info2 = self.show(unit, "ActiveState", "SubState", "NRestarts", "MainPID")
        after = self.journal(unit, cur)
        # The app's own lines ("overscroll: ...") and systemd's about the unit's process.
        bad_lines = [l for l in after.splitlines() if re.search(r"stalled|refused|cannot read|exit|error|fail", l, re.I)
                     and (l.startswith("overscroll") or "process exited" in l or "Failed" in l)]
        c.record(f"{u}.clock-step", info2.get("MainPID") == main_pid and info2.get("NRestarts") == "0" and not bad_lines,
                 f"after the step: pid {info2.get('MainPID')} (was {main_pid}), restarts {info2.get('NRestarts')}, {info2.get('SubState')}; "
                 + (f"journal: {bad_lines[0]}" if bad_lines else "no read failed"))
        fr = self.frames(unit)
        t = [float(r["t_ms"]) for r in fr]
        back = sum(1 for a, b in zip(t, t[1:]) if b < a)
        jump = max((b - a for a, b in zip(t, t[1:])), default=0)
        iv = [float(r["interval_ms"]) for r in fr if r.get("interval_ms")]
        c.record(f"{u}.frame-times", bool(fr) and back == 0 and jump < 600_000 and iv and min(iv) >= 0 and max(iv) < 60_000,
                 f"{len(t)} frames: t_ms went back {back} times, longest gap {jump / 1000:.1f} s; interval_ms "
                 f"{min(iv) if iv else '?'}..{max(iv) if iv else '?'} (the clock stepped years ahead)")

        # A fling: momentum after the finger lifts, then rest. 400 ms of touch: two frames
        # or more at the 5 fps llvmpipe draws KMSDRM at under emulation (SDL's evdev gives
        # a flick within one frame no timing of its own: lost at any rate, by design).
        fr, lift, moving, told = self.flick(lambda *st: vm.touch(*st, stamps=True), lambda: len(self.frames(unit)),
                                            lambda n: self.frames(unit)[n:])
        final = fr[-1] if fr else {}
        moved = float(final.get("content_offset", 0)) - float(lift.get("content_offset", 0)) if lift and final else 0.0
        c.record(f"{u}.fling", len(moving) >= 2 and abs(moved) > 40 and abs(float(final.get("velocity", 1))) < 0.001,
                 f"{told}the finger lifted at {lift.get('content_offset', '?')} pt; {len(moving)} frames of momentum moved the list "
                 f"{moved:.0f} pt more; at rest at {final.get('content_offset', '?')} ({final.get('ui_state', '?')})")
        self.shot(u, "fling")

        # A tap selects a row.
        time.sleep(1)
        before = len(self.frames(unit))
        vm.touch(["down", 0, 360, 640], ["wait", 60], ["up", 0], ["wait", 1500])
        fr = self.frames(unit)[before:]
        taps = [r for r in fr if "tap" in r.get("events", "")]
        sel = [r.get("selected") for r in fr if r.get("selected") not in ("", "-1", None)]
        c.record(f"{u}.tap", bool(taps) and bool(sel), f"{len(taps)} tap frames, selected row {sel[-1] if sel else 'none'}")
        self.shot(u, "tap")

        # A second finger does not jump the list.
        time.sleep(1)
        before = len(self.frames(unit))
        vm.touch(["down", 0, 360, 700], ["move", 0, 360, 650, 200], ["wait", 300],
                 ["down", 1, 360, 300], ["move", 1, 360, 600, 300], ["wait", 300], ["up", 1], ["wait", 300],
                 ["up", 0], ["wait", 1500])
        fr = self.frames(unit)[before:]
        offs = [float(r["content_offset"]) for r in fr]
        step = max((abs(b - a) for a, b in zip(offs, offs[1:])), default=0)
        total = (max(offs) - min(offs)) if offs else 0
        c.record(f"{u}.second-finger", len(offs) > 2 and total < 90,
                 f"{len(offs)} frames: the list moved within {total:.0f} pt (the first finger dragged 50, the second 300), at most {step:.0f} pt in a frame")

        # Touch to scanout (issue 51): on the KMSDRM unit's DRM dumb-buffer path, checked
        # when the stop below has completed the report.
        series = self.touch_series(unit) if unit == "overscroll-kiosk" else None

        # Stop: within TimeoutStopSec, the report complete.
        run = self.latest_run()
        t0 = time.monotonic()
        vm.sh(f"systemctl stop {unit}", 60)
        took = time.monotonic() - t0
        info = self.show(unit, "Result", "ExecMainStatus", "ExecMainCode", "TimeoutStopUSec")
        summary = vm.out(f"cat {run}/summary.json")
        def counts(v):  # every "frames": N in the summary
            if isinstance(v, dict):
                for k, x in v.items():
                    if k == "frames" and isinstance(x, int):
                        yield x
                    else:
                        yield from counts(x)
            elif isinstance(v, list):
                for x in v:
                    yield from counts(x)
        try:
            frames = max(counts(json.loads(summary)), default=0)
        except ValueError:
            frames = -1
        files = vm.out(f"ls {run}").split()
        rows = len(csv_rows(vm.out(f"cat {run}/frames.csv")))
        c.record(f"{u}.stop", took < 5 and info.get("Result") == "success" and frames > 0 and rows >= frames
                 and {"frames.csv", "summary.json", "trace.json", "frames.svg"} <= set(files),
                 f"systemctl stop took {took:.1f} s (TimeoutStopSec 5), result {info.get('Result')}, exit {info.get('ExecMainStatus')}; "
                 f"{run}: {' '.join(files)}; summary.json: " + ("not JSON" if frames < 0 else f"{frames} frames, frames.csv {rows} rows"))
        if series:
            self.touch_to_scanout(unit, run, series)
        return run, summary

    def flick(self, play, mark, since, tablet=False):
        """A flick up, 400 pt in 400 ms with the lift right after the last move, played by
        `play` (steps -> the packets' kernel stamps), to rest. Returns the frames after
        `mark()` (read by `since`), the last under the finger, the frames of momentum after
        it, and what the check's line says of the panel. Played once more only where the
        panel, not the kiosk, is to blame: the agent's packets paused past the tracker's gap
        before the lift (the guest starved under TCG: a kiosk rightly sees a finger that
        stopped; CI's bochs-single-rot90 once), or QEMU's tablet, whose timing is not seen
        (in two of four runs under TCG on a loaded host its flick lifted with no momentum,
        its last 20 pt read with the release)."""
        again = timing = ""
        for attempt in range(2):
            time.sleep(2)
            before = mark()
            pause = flick_pause(play(["down", 0, 360, 1000], ["move", 0, 360, 600, 400], ["up", 0]), move=1, lift=2)
            timing = f"the panel's packets at most {pause[0]:.0f} ms apart in the flick's last 100 ms ({pause[1]} moves); " if pause else ""
            # velocity is the list's own motion, 0 under a finger: rest is idle and still.
            fr = self.wait("rest", lambda: (lambda f: f if len(f) > 3 and f[-1].get("ui_state") == "idle" and all(
                abs(float(r["velocity"])) < 0.001 for r in f[-3:]) else None)(since(before)), 40, 1) or since(before)
            # From the last frame under the finger: the list goes on by itself (momentum, and a
            # bounce where it reaches an end), then rests.
            drag = [i for i, r in enumerate(fr) if r.get("ui_state") == "dragging"]
            lift = fr[drag[-1]] if drag else {}
            moving = [r for r in fr[drag[-1] + 1:] if r.get("ui_state") in ("momentum", "overscrolled")] if drag else []
            held = bool(pause) and (pause[0] > TRACKER_MAX_GAP_MS or pause[1] < TRACKER_MIN_SAMPLES)
            if len(moving) >= 2 or attempt or not (tablet or held):
                break
            why = f"{timing}the agent, not the kiosk, held the finger" if held else "QEMU's tablet, whose timing is not seen"
            again = f"a second flick (the first lifted at {lift.get('content_offset', '?')} pt with {len(moving)} frames of momentum; {why}); "
        return fr, lift, moving, again + timing

    # ---- touch to scanout (issue 51; script/vm/latency.py says what is independent of the app)
    def touch_series(self, unit):
        """latency.TOUCHES touches from rest on the uinput panel, each packet's kernel time
        read back by the agent, every flip's completion in the kernel's trace. The frames
        of the series are those after the last frame before it, to the last after it."""
        vm = self.vm
        csv = f"{self.latest_run()}/frames.csv"
        self.rest(csv)
        time.sleep(1.2)     # the scroll bar's fade; frames.csv is flushed every 0.25 s
        probe = vm.out(latency.VBLANK_PROBE)
        rc, text = vm.sh(latency.TRACE_ON)
        if rc != 0:
            return {"error": f"the kernel's trace could not be started: {text.strip()[:200]}"}
        first = self.recent_frames(csv, 1)
        stamps = []
        t0 = time.monotonic()
        for i in range(latency.TOUCHES):
            steps = latency.touch_steps(i)
            res = vm.request({"touch": steps, "stamps": True}, 60)
            if res.get("rc") != 0:
                vm.sh(latency.TRACE_OFF)
                return {"error": f"touch {i}: the agent said {res.get('err')}"}
            stamps += [(i, steps[step][0], t) for step, t in res.get("stamps", [])]
        played = time.monotonic() - t0
        self.rest(csv)
        time.sleep(1.2)
        last = self.recent_frames(csv, 1)
        trace = vm.out(latency.TRACE_OFF, 60)
        return {"probe": probe, "trace": trace, "stamps": stamps, "played_s": round(played, 1),
                "f0": int(first[-1]["frame"]) if first else -1, "f1": int(last[-1]["frame"]) if last else -1}

    def touch_to_scanout(self, unit, run, series):
        """The report's touch_to_scanout_ms of the series against the kernel's times, and
        the bar: p95 of the touches at most 1.5 refresh periods plus the draw time's p95."""
        vm, c, u = self.vm, self.c, unit.replace("overscroll-", "")
        if "error" in series:
            return c.record(f"{u}.touch-to-scanout", False, series["error"])
        f0, f1 = series["f0"], series["f1"]
        text = vm.out(f"awk -F, -v a={f0} -v b={f1} 'NR == 1 || ($1 > a && $1 <= b)' {run}/frames.csv")
        rows = csv_rows(text)
        # Kept beside the screenshots: the series' rows, the kernel's trace, the packets.
        with open(os.path.join(self.out, "touch-to-scanout.txt"), "w") as f:
            f.write(f"# frames.csv, frames {f0} < frame <= {f1}\n{text}\n# the kernel's trace\n{series['trace']}\n"
                    "# packets: touch, step, kernel time (µs)\n" + "".join(f"{t} {k} {us}\n" for t, k, us in series["stamps"]))
        flips, delivered, vblanks = latency.parse_trace(series["trace"])
        if len(flips) != len(delivered):
            # No kprobe (a kernel without kprobe events): the deliveries' trace times, later than the stamps.
            problems_kprobe = f"{len(flips)} event times from the kprobe, {len(delivered)} deliveries"
            flips = delivered
        else:
            problems_kprobe = ""
        samples, others, problems = latency.match(rows, flips, series["stamps"])
        if problems_kprobe:
            problems.insert(0, problems_kprobe)
        late = [d - f for f, d in zip(flips, delivered)]
        try:
            meta = json.loads(vm.out(f"cat {run}/summary.json")).get("metadata", {})
            marks = latency.phases(json.loads(vm.out(f"{latency.PICK} {run}/trace.json {f0} {f1}")), {s["frame"] for s in samples})
        except ValueError as x:
            meta, marks = {}, {}
            problems.append(f"summary.json or trace.json unreadable: {x}")
        if meta.get("touch_time_source") != "kernel" or not meta.get("scanout_clock"):
            problems.append(f"metadata: touch_time_source {meta.get('touch_time_source')!r}, scanout_clock {meta.get('scanout_clock')!r}")
        period = float(meta.get("refresh_period_ms") or 0)
        values = [s["reported_ms"] for s in samples if s.get("reported_ms") is not None]
        draws = [s["draw_ms"] for s in samples]
        diffs = [abs(s["difference_ms"]) for s in samples + others if "difference_ms" in s]
        p50, p95, top = latency.rank(values, 0.5), latency.rank(values, 0.95), max(values, default=float("nan"))
        draw95 = latency.rank(draws, 0.95)
        bar = latency.BAR_PERIODS * period + draw95
        names = ("input wait", "pump", "model", "draw", "held", "present", "vblank wait")
        means = {n: round(statistics.mean(m[n] for m in marks.values()), 2) for n in names} if marks else {}
        for s in samples:
            s["phases_ms"] = marks.get(s["frame"])
        self.cpu.setdefault(u, {})["touch_to_scanout"] = {
            "touches": latency.TOUCHES, "shown": len(values), "p50_ms": p50, "p95_ms": p95, "max_ms": top,
            "refresh_period_ms": period, "draw_p95_ms": draw95, "bar_ms": round(bar, 3), "phase_means_ms": means,
            "max_difference_ms": max(diffs, default=None), "vblank_probe": series["probe"], "vblank_interrupts": vblanks,
            "delivery_after_stamp_max_ms": max(late, default=0) / 1000,
            "flips": len(flips), "frames": len(rows), "played_s": series["played_s"], "samples": samples, "others": others,
            "metadata": {k: meta.get(k) for k in ("scanout_clock", "touch_time_source", "refresh_period_ms", "video_driver", "render_path")}}
        print(f"{ME}: latency: {len(values)} of {latency.TOUCHES} touches from rest: touch to scanout p50 {p50:.2f}, p95 {p95:.2f}, "
              f"max {top:.2f} ms; refresh period {period:.2f} ms; draw (frame start to drawn) p95 {draw95:.2f} ms", flush=True)
        if means:
            print(f"{ME}: latency: by phase, means (ms): " + ", ".join(f"{n} {v:.2f}" for n, v in means.items())
                  + f"; total {sum(means.values()):.2f}", flush=True)
        print(f"{ME}: latency: the kernel's side: {len(flips)} flip events traced for {len(rows)} frames (their deliveries "
              f"traced up to {max(late, default=0) / 1000:.3f} ms after the time they carry), {vblanks} vblank "
              f"interrupts; a second reader's drmWaitVBlank: {series['probe']}", flush=True)
        c.record(f"{u}.touch-to-scanout", not problems and len(values) == latency.TOUCHES,
                 f"{len(values)} of {latency.TOUCHES} touches shown with touch_to_scanout_ms ({len(others)} other frames with one); "
                 f"reported against the flip event's time (kernel trace) less the packet's kernel time (evdev, read back): "
                 f"max |difference| {max(diffs, default=float('nan')):.3f} ms (at most {latency.TOLERANCE_MS})"
                 + (f"; {'; '.join(problems[:4])}" if problems else ""))
        c.record(f"{u}.touch-to-scanout-p95", bool(values) and p95 <= bar,
                 f"p95 {p95:.2f} ms over {len(values)} touches from rest; at most {latency.BAR_PERIODS} x {period:.2f} ms "
                 f"+ draw p95 {draw95:.2f} ms = {bar:.2f} ms")

    # ---- what the app maps, the path its start line names, its CPU over fixed gestures
    def app_pid(self):
        # By its program: the app names itself "overscroll" (its comm) at start.
        hits = self.vm.out("for p in /proc/[0-9]*; do [ \"$(readlink $p/exe)\" = /usr/libexec/overscroll/overscroll-app ] "
                           "&& echo ${p#/proc/}; done").split()
        return hits[0] if hits else None

    def maps(self, unit, started, u=None):
        """The libraries the running app maps (/proc/PID/maps): on a DRM device without a
        GPU driver no GL stack (issue 40); and the path its start line names. `u`: the
        checks' prefix (the unit's short name)."""
        vm, c, u = self.vm, self.c, u or unit.replace("overscroll-", "")
        pid = self.app_pid()
        libs = self.mapped(pid) if pid else []
        gl, graphics = gl_stack(libs)
        gbm = gbm_words(gl, graphics)
        path = re.sub(r", window .*", "", started.split("started: ", 1)[-1]) if started else "no start line"
        self.cpu.setdefault(u, {}).update(unit=unit, start_line=started, path=path, maps_gl=gl, maps_graphics=graphics, gbm=gbm)
        c.record(f"{u}.maps", bool(pid) and bool(libs) and not gl,
                 f"overscroll-app (pid {pid or 'not found'}) on {path}: maps "
                 + (", ".join(gl) if gl else "no GL stack (libGL*, libEGL*, libLLVM*, libgallium*, *_dri.so, a GBM backend)")
                 + (f"; {gbm}" if gbm else "") + f"; graphics libraries mapped: {', '.join(graphics) or 'none'}")

    def mapped(self, pid):
        """The shared objects /proc/PID/maps holds, by path."""
        return self.vm.out(f"sed -n 's|.* \\(/[^ ]*\\.so[^ ]*\\)$|\\1|p' /proc/{pid}/maps | sort -u").split()

    def cpu_sample(self, app):
        """Guest uptime and utime+stime (every thread: the process's line in /proc) of the
        app (pid `app`) and the compositor's processes, in seconds, by (name, pid)."""
        names = "|".join(CPU_PROCESSES[1:])
        lines = self.vm.out(f"cat /proc/uptime /proc/{app}/stat; grep -hE '^[0-9]+ \\(({names})\\) ' /proc/[0-9]*/stat 2>/dev/null").splitlines()
        cpu = {}
        for n, l in enumerate(lines[1:]):
            name, fields = l[l.index("(") + 1:l.rindex(")")], l[l.rindex(")") + 2:].split()
            cpu[(CPU_PROCESSES[0] if n == 0 else name, l.split()[0])] = (int(fields[11]) + int(fields[12])) / self.clk_tck
        return float(lines[0].split()[0]), cpu

    def probe(self):
        """This guest's speed now: CPU a frame, in ms, of `overscroll replay` playing
        CPU_GESTURES at the kiosk's size on the boot's rows (its own `process CPU` line:
        every thread, the frames' loop only), or None and why."""
        steps = {"down": lambda x, y: f"down {x} {y}", "move": lambda x, y, ms: f"move {x} {y} {ms}ms",
                 "wait": lambda ms: f"wait {ms}ms", "up": lambda: "up"}
        script = "\n".join(steps[g[0]](*g[2 if g[0] in ("down", "move", "up") else 1:]) for g in CPU_GESTURES)
        rc, said = self.vm.sh(f"printf '{script}\\n' > {PROBE_SCRIPT} && overscroll replay {PROBE_SCRIPT} --size {W}x{H} --repeat 3 "
                              f"--content {ROWS} --verbose 2>&1", 300)
        m = re.search(r"process CPU: \d+ ms start-up, (\d+) ms over (\d+) frames", said)
        if rc != 0 or not m or int(m[2]) == 0:
            return None, f"overscroll replay exited {rc}: {said.strip()[-300:]}"
        return int(m[1]) / int(m[2]), ""

    def recent_frames(self, csv, n):
        return csv_rows(self.vm.out(f"head -1 {csv}; tail -n {n} {csv}"))

    def rest(self, csv, timeout=30):
        """Waits until the list is at rest (the app draws no frame then); the last frame."""
        def still():
            fr = self.recent_frames(csv, 2)
            return fr[-1] if fr and fr[-1].get("ui_state") == "idle" and fr[-1].get("refresh_state") == "idle" and abs(
                float(fr[-1].get("velocity") or 1)) < 0.001 else None
        return self.wait("rest", still, timeout, 1) or (self.recent_frames(csv, 1) or [{}])[-1]

    def cpu_runs(self, unit):
        """CPU_GESTURES played CPU_RUNS times: the CPU of the app and of the compositor and
        its X server, apart, from before the gestures to the list at rest after them."""
        vm, c, u = self.vm, self.c, unit.replace("overscroll-", "")
        self.clk_tck = self.clk_tck or int(vm.out("getconf CLK_TCK") or 100)
        pid = self.app_pid()
        csv = vm.out(f"readlink /proc/{pid}/fd/* | grep -m1 '/frames.csv$'") if pid else ""
        if not csv:
            return c.record(f"{u}.cpu-gestures", False, f"no running overscroll-app with a frames.csv (pid {pid})")
        runs, probes = [], [self.probe()[0]]
        for i in range(CPU_RUNS):
            # From the top, as a run ends when its fling back reaches it: flung back (not
            # counted) from wherever the checks or a run that fell short left the list.
            for _ in range(3):
                if float(self.rest(csv).get("content_offset") or 0) <= 1:
                    break
                vm.touch(*CPU_GESTURES[9:12])
            n0 = int(vm.out(f"wc -l < {csv}"))
            t0, before = self.cpu_sample(pid)
            vm.touch(*CPU_GESTURES)
            self.rest(csv)
            t1, after = self.cpu_sample(pid)
            fr = csv_rows(vm.out(f"head -1 {csv}; tail -n +{n0 + 1} {csv}"))
            per = {name: round(sum(v - before.get(k, 0) for k, v in after.items() if k[0] == name), 2) for name in CPU_PROCESSES}
            states = {r.get("refresh_state") for r in fr}
            run = {"wall_s": round(t1 - t0, 2), "frames": len(fr), "app_s": per["overscroll-app"], "cage_s": per["cage"],
                   "xwayland_s": per["Xwayland"], "whole_s": round(sum(per.values()), 2),
                   "refreshed": "armed" in states and "refreshing" in states,
                   "momentum": sum(1 for r in fr if r.get("ui_state") == "momentum"),
                   "tapped": any("tap" in r.get("events", "") for r in fr),
                   "ends_at": (fr[-1].get("content_offset") if fr else None)}
            runs.append(run)
            probes.append(self.probe()[0])
            print(f"{ME}: cpu: {u} run {i + 1}: app {run['app_s']:.2f} s"
                  + (f", cage {run['cage_s']:.2f} s, Xwayland {run['xwayland_s']:.2f} s, whole path {run['whole_s']:.2f} s" if u == "cage" else "")
                  + f" over {run['wall_s']:.1f} s, {run['frames']} frames", flush=True)
        med = {k: round(statistics.median(r[k] for r in runs), 2) for k in ("app_s", "cage_s", "xwayland_s", "whole_s", "wall_s", "frames")}
        # The probe around the runs (before the first, after each): the machine's speed
        # over them, which a matrix boot's CPU is compared in units of.
        timed = [p for p in probes if p]
        med["probe_ms"] = round(statistics.mean(timed), 3) if timed else None
        print(f"{ME}: cpu: {u} probe (overscroll replay, ms a frame) before and after the runs: "
              + " ".join(f"{p:.2f}" if p else "none" for p in probes), flush=True)
        self.cpu.setdefault(u, {}).update(unit=unit, runs=runs, median=med)
        # Each run must have pulled to a refresh and tapped: it started at the top. (A fling
        # may be lost on a kiosk drawing a frame or two a second: the fling check's business.)
        bad = [i + 1 for i, r in enumerate(runs) if not (r["refreshed"] and r["tapped"])]
        c.record(f"{u}.cpu-gestures", not bad,
                 f"{CPU_RUNS} runs of a pull that refreshes, a fling, a fling back to the top and a tap: medians app "
                 f"{med['app_s']:.2f} s, whole path {med['whole_s']:.2f} s, over {med['wall_s']:.1f} s and {med['frames']:.0f} frames; "
                 f"frames of momentum {[r['momentum'] for r in runs]}"
                 + (f"; runs {bad} did not refresh and tap each: {[runs[i - 1] for i in bad]}" if bad else ""))
        self.idle_cpu(unit, pid, csv)

    def idle_cpu(self, unit, pid, csv):
        """A still kiosk costs next to nothing: the app's CPU over IDLE_S at rest, at most
        IDLE_BAR of a core. (SDL 2's evdev driver has no wait of its own and polls at 1 kHz:
        0.15 of a core under emulation, until the console got a wait of ours.)"""
        u = unit.replace("overscroll-", "")
        self.rest(csv)
        t0, before = self.cpu_sample(pid)
        time.sleep(IDLE_S)
        t1, after = self.cpu_sample(pid)
        app = sum(v - before.get(k, 0) for k, v in after.items() if k[0] == "overscroll-app")
        share = app / max(0.001, t1 - t0)
        self.cpu.setdefault(u, {})["idle"] = {"app_s": round(app, 3), "wall_s": round(t1 - t0, 2), "share": round(share, 4)}
        self.c.record(f"{u}.idle-cpu", share <= IDLE_BAR,
                      f"at rest the app took {app:.2f} s of CPU over {t1 - t0:.1f} s ({share:.3f} of a core; at most {IDLE_BAR})")

    def cpu_ratio(self):
        """KMSDRM over cage, medians of CPU_RUNS: the app alone, and the whole path (the app,
        and under cage the compositor and Xwayland too). The bar is the whole path's."""
        k, g = self.cpu.get("kiosk", {}).get("median"), self.cpu.get("cage", {}).get("median")
        if not k or not g:
            return self.c.record("cpu-ratio", False, "no CPU figures from both units")
        app = k["app_s"] / max(g["app_s"], 0.01)
        whole = k["whole_s"] / max(g["whole_s"], 0.01)
        self.cpu["ratio"] = {"app": round(app, 2), "whole_path": round(whole, 2), "bar": CPU_BAR}
        print(f"{ME}: cpu: medians of {CPU_RUNS}: KMSDRM kiosk ({self.cpu['kiosk'].get('path')}) app {k['app_s']:.2f} s; "
              f"cage ({self.cpu['cage'].get('path')}) app {g['app_s']:.2f} s + cage {g['cage_s']:.2f} s + Xwayland {g['xwayland_s']:.2f} s "
              f"= {g['whole_s']:.2f} s", flush=True)
        self.c.record("cpu-ratio", whole <= CPU_BAR,
                      f"KMSDRM / cage, CPU over the same gestures (medians of {CPU_RUNS}): app only {app:.2f}x, "
                      f"whole path {whole:.2f}x (at most {CPU_BAR}x)")

    def metrics(self, unit):
        """README step 8, as it says, in the guest; then the unit restarted and node_exporter asked."""
        vm, c, u = self.vm, self.c, unit.replace("overscroll-", "")
        vm.sh("chgrp overscroll /var/lib/prometheus/node-exporter && chmod g+w /var/lib/prometheus/node-exporter && "
              "sed -i 's|^# *metrics = |metrics = |' /etc/overscroll/kiosk.toml && systemctl restart " + unit, 90)
        fetch = ("python3 -c \"import urllib.request as u; print(u.urlopen('http://127.0.0.1:9100/metrics', timeout=5)"
                 ".read().decode())\" | grep -E '^overscroll_|textfile' ")
        self.check_runs(f"{u}.reports-kept-restart", "systemctl restart (the clock now right)")
        got = self.wait("metrics", lambda: [l for l in vm.out(fetch).splitlines() if l.startswith("overscroll_")], 40, 2)
        errs = [l for l in vm.out(fetch).splitlines() if "scrape_error" in l or "textfile_mtime" in l]
        mode = vm.out("stat -c '%a %U:%G' /var/lib/prometheus/node-exporter/overscroll.prom 2>&1")
        c.record(f"{u}.node-exporter", bool(got),
                 f"{len(got)} overscroll_ lines from node_exporter on :9100 (e.g. {got[0] if got else '-'}); the file: {mode}; {' '.join(errs)[:160]}")
        self.no_crash(unit)

    def no_crash(self, unit, name=None):
        """A kiosk never crash-loops: over this boot (its start, the stop, the restart just
        done) the unit's process never died of a signal a crash sends, and the restart
        came up without one (SIGSEGV in llvmpipe twice in a row after a stop, under a CPU
        whose AVX2 gathers QEMU emulated wrongly: script/vm/gather-check.c)."""
        vm, c, u = self.vm, self.c, unit.replace("overscroll-", "")
        self.wait("active", lambda: self.show(unit, "SubState").get("SubState") == "running", 120, 1)
        info = self.show(unit, "ActiveState", "SubState", "NRestarts")
        crashes = [l for l in self.journal(unit).splitlines()
                   if re.search(r"Main process exited, code=(dumped|killed), status=\d+/(SEGV|BUS|ILL|FPE|SYS|TRAP|ABRT)", l)]
        c.record(name or f"{u}.no-crash", not crashes and info.get("NRestarts") == "0" and info.get("SubState") == "running",
                 f"{unit}: {info.get('ActiveState')} ({info.get('SubState')}), restarts {info.get('NRestarts')} after the restart; "
                 + (f"{len(crashes)} crashes this boot: {crashes[0]}" if crashes else "no crash this boot"))

    def gl_path(self, unit):
        """`renderer = "gpu"`: the KMSDRM unit on SDL's GLES2 renderer (Mesa's llvmpipe
        here), the path a machine with a GPU takes, restarted as after a stop: it comes up,
        shows the rows, and never crashes. Then the drop-in goes and the unit is restarted
        on its own path again."""
        vm, c, u = self.vm, self.c, unit.replace("overscroll-", "")
        cur = self.cursor()
        vm.sh("printf 'renderer = \"gpu\"\\n' > /etc/overscroll/kiosk.toml.d/70-vm-gpu.toml && systemctl restart " + unit, 180)
        self.check_runs(f"{u}.reports-kept-gpu", "systemctl restart on the GPU path")
        self.wait("active", lambda: self.show(unit, "SubState").get("SubState") == "running", 180, 2)
        started = [l for l in self.journal(unit, cur).splitlines() if "started: video" in l]
        ok, text = self.settle(u, "gpu", self.ref("reloaded"), timeout=60)
        info = self.show(unit, "SubState", "NRestarts")
        c.record(f"{u}.gpu-path", ok and bool(started) and "renderer opengles2" in started[0] and info.get("NRestarts") == "0",
                 f"{started[0] if started else 'no started: line'}; {info.get('SubState')}, restarts {info.get('NRestarts')}; the rows: {text}")
        self.no_crash(unit, f"{u}.gpu-no-crash")
        vm.sh(f"rm -f /etc/overscroll/kiosk.toml.d/70-vm-gpu.toml && systemctl restart {unit}", 180)
        self.check_runs(f"{u}.reports-kept-after-gpu", "systemctl restart on its own path")

    def cpu_gather(self):
        """The emulated CPU gathers right, or offers no AVX2 (script/vm/gather-check.c)."""
        rc, out = self.vm.sh("/usr/local/lib/vm-test/gather-check", 30)
        words = {0: "AVX2 gathers read right", 77: "no AVX2 offered (llvmpipe takes no gathers)"}
        self.c.record("cpu-gather", rc in words,
                      words.get(rc, f"exit {rc}{' (SIGSEGV)' if rc in (139, -11) else ''}: the guest's AVX2 gather reads "
                                    "the wrong memory, and the kiosk's llvmpipe crashes on it") + "; " + " | ".join(out.strip().splitlines())[:300])

    def to_cage(self):
        """The cage unit on the next boot, as an operator would switch."""
        self.vm.sh("systemctl stop overscroll-kiosk; systemctl disable overscroll-kiosk && systemctl enable overscroll-cage && "
                   "systemctl set-default graphical.target && sed -i 's|^metrics = |# metrics = |' /etc/overscroll/kiosk.toml && "
                   "rm -f /etc/overscroll/kiosk.toml.d/60-vm-rows.toml /etc/overscroll/kiosk.toml.d/55-vm-boot.toml && sync", 60)

    def summary(self):
        self.vm.stop()
        with open(os.path.join(self.out, "cpu.json"), "w") as f:
            json.dump(self.cpu, f, indent=1)
        for name in (n for n in MATRIX if n in self.cpu):
            words = [w for n, w in self.c.results if n.startswith(name + ".")]
            m = self.cpu[name]
            print(f"{ME}: matrix: {name:20} {m.get('boot_s', 0):5.0f} s; {words.count('PASS')} passed, {words.count('XFAIL')} XFAIL, "
                  f"{words.count('FAIL')} failed; app CPU over the gestures {m.get('gestures', {}).get('app_s', '-')} s "
                  f"({m.get('gestures', {}).get('ms_per_frame', '-')} ms a frame"
                  + (f"; {m['compare']['ratio']}x {m['compare']['what']}'s" if "ratio" in m.get("compare", {}) else "")
                  + (f"; {m['ratio']['probed']}x the kiosk's in the probe's units, {m['ratio']['raw']}x raw" if m.get("ratio") else "")
                  + f"), at rest {m.get('idle', {}).get('share', '-')} of a core", flush=True)
        failed = self.c.failed()
        n = len(self.c.results)
        xf = sum(1 for _, w in self.c.results if w == "XFAIL")
        print(f"{ME}: {n - len(failed) - xf} passed, {xf} known failures (XFAIL), {len(failed)} failed"
              + (f": {' '.join(failed)}" if failed else ""))
        return 1 if failed else 0

    def main(self):
        a, vm = self.args, self.vm
        boots = a.matrix.split()
        vm.start()
        boot = vm.hello(a.boot_timeout)
        self.phase("boot 1 (to the agent)")
        if a.matrix_only:
            for name in boots:
                self.matrix(name)
            return self.summary()
        self.cpu_gather()
        self.started = vm.out("cat /etc/vm-test-earlier-runs").split()
        self.unit_checks("overscroll-kiosk")
        self.metrics("overscroll-kiosk")
        self.gl_path("overscroll-kiosk")
        self.phase("overscroll-kiosk checks")
        # The CPU of the same gestures on every unit (cpu-ratio compares them), on the last
        # restart (gl_path's, back on its own path; the cage unit's metrics()): the same
        # rows on both, the list at the top.
        self.cpu_runs("overscroll-kiosk")
        self.phase("overscroll-kiosk CPU")
        if "usb-tablet" in boots:
            self.matrix("usb-tablet")
            self.adopt_runs()
        self.to_cage()
        open(os.path.join(self.out, "journal-boot1.txt"), "w").write(
            vm.out("journalctl -b -o short-monotonic --no-pager", 60))
        # The report of the run that ended last (stopped above) must outlive the reboot.
        run1 = self.latest_run()
        summary1 = vm.out(f"cat {run1}/summary.json") if run1 else ""
        vm.reboot(spec=CAGE_BOOT)
        vm.hello(a.boot_timeout, boot)
        self.phase("boot 2 (to the agent)")
        kept = vm.out(f"cat {run1}/summary.json") if run1 else ""
        self.c.record("report-survives-reboot", bool(run1) and kept == summary1 and bool(summary1),
                      f"{run1}/summary.json after the reboot: {'the same' if kept == summary1 and summary1 else 'missing or changed'}")
        self.unit_checks("overscroll-cage")
        self.metrics("overscroll-cage")
        self.phase("overscroll-cage checks")
        self.cpu_runs("overscroll-cage")
        self.cpu_ratio()
        self.phase("overscroll-cage CPU")
        vm.sh("journalctl -b -o short-monotonic --no-pager > /tmp/journal.txt; ls -lR /var/lib/overscroll/reports > /tmp/reports.txt", 30)
        for f in ("journal.txt", "reports.txt"):  # journal.txt: the second boot's
            open(os.path.join(self.out, f), "w").write(vm.out(f"cat /tmp/{f}"))
        # The matrix's other boots, on the KMSDRM unit again.
        rest = [n for n in boots if not MATRIX[n].get("same_boot")]
        if rest:
            self.to_kiosk()
        for name in rest:
            self.matrix(name)
        return self.summary()

    # ---- --arch arm64: the arm64 package on QEMU's virt board (ARM64_BOOT)
    def arm64(self):
        """One boot: the KMSDRM unit as systemd starts it, the matrix's checks (the list at
        rest, a pull that refreshes, a fling, a tap on the row under the finger, each on the
        scanout against the headless frame; its CPU over the gestures and at rest), then
        what it maps."""
        vm, unit = self.vm, "overscroll-kiosk"
        self.seen = ""
        vm.start(ARM64_BOOT)
        vm.hello(self.args.boot_timeout)
        self.phase("boot (to the agent)")
        self.matrix_checks("arm64", ARM64_BOOT, unit)
        started = [l for l in self.journal(unit).splitlines() if "started: video" in l]
        self.maps(unit, started[-1] if started else "", "arm64")
        self.cpu.setdefault("arm64", {})["machine"] = vm.out("uname -srm; grep -m1 -E '^(CPU implementer|model name)' /proc/cpuinfo")
        with open(os.path.join(self.out, "journal-arm64.txt"), "w") as f:
            f.write(vm.out("journalctl -b -o short-monotonic --no-pager", 60))
        self.phase("arm64: checks and CPU")
        return self.summary()

    # ---- the matrix: the kiosk on other displays and panels (MATRIX)
    def matrix(self, name):
        """One boot of the matrix: the machine rebooted with its devices (or, `same_boot`,
        the device hot-added and the unit restarted), then the list at rest, a pull that
        refreshes, a fling and a tap on the row under the finger, each on the scanout
        against the headless frame at the app's size turned as the screen is; its CPU."""
        vm, spec, unit = self.vm, MATRIX[name], "overscroll-kiosk"
        t0 = time.monotonic()
        self.seen = ""
        if spec.get("same_boot"):
            # The monitor echoes the command as a terminal would (escape sequences): only an error is news.
            added = [l for l in vm.monitor("device_add usb-tablet,id=matrix-tablet").splitlines() if "rror" in l]
            # The guest enumerates the USB device on its own time: its input device, then udev.
            self.seen = "device_add: " + (added[0].strip() if added else "ok") + "; the guest's input devices: " + vm.out(
                "for i in $(seq 60); do grep -qs Tablet /sys/class/input/input*/name && break; sleep 0.5; done; udevadm settle -t 20; "
                "for d in /sys/class/input/event*; do printf '%s: %s %s; ' ${d##*/} \"$(cat $d/device/name)\" "
                "\"$(udevadm info -q property $d | grep -E '^ID_INPUT_(TOUCHSCREEN|MOUSE|TABLET)=1' | tr '\\n' ' ')\"; done")
            kiosk = "".join(f"{k} = {v if re.fullmatch(r'-?[0-9.]+|true|false', v) else json.dumps(v)}\\n" for k, v in spec["kiosk"].items())
            vm.sh(f"printf '{kiosk}' > /etc/overscroll/kiosk.toml.d/55-vm-boot.toml && systemctl restart {unit}", 180)
        else:
            boot = vm.out("cat /proc/sys/kernel/random/boot_id")
            vm.reboot(spec=spec)
            vm.hello(self.args.boot_timeout, boot)
        self.phase(f"{name}: boot")
        # A kiosk restarted under the checks (issue 48: a refused page flip taken as a lost
        # display, exit 75, restarted for ever) is a FAIL said with its journal's last
        # lines, never the driver's crash; and the boot's journal is kept whatever came.
        try:
            self.matrix_checks(name, spec, unit)
            if spec.get("compare") and self.cpu.get(name, {}).get("gestures"):
                self.same_panel(name, spec, unit)
        except Exception as x:  # noqa: BLE001 -- one boot's checks, whatever stopped them
            self.c.record(f"{name}.checks", False, f"the checks stopped: {type(x).__name__}: {x}")
        finally:
            with open(os.path.join(self.out, f"journal-{name}.txt"), "w") as f:
                f.write(vm.out("journalctl -b -o short-monotonic --no-pager", 60))
        info = self.show(unit, "SubState", "NRestarts")
        if info.get("NRestarts", "0") != "0":
            last = [l for l in self.journal(unit).splitlines() if "exiting" in l or "lost" in l][-2:]
            self.c.record(f"{name}.restarted", False, f"{unit} was restarted {info.get('NRestarts')} times during the checks "
                          f"({info.get('SubState')}); its lines: {' | '.join(last) or 'none'} (journal-{name}.txt)")
        took = time.monotonic() - t0
        self.cpu.setdefault(name, {})["boot_s"] = round(took, 1)
        self.phase(f"{name}: checks and CPU")
        print(f"{ME}: time: {name} took {took:.0f} s in all", flush=True)

    def matrix_checks(self, name, spec, unit):
        vm, c = self.vm, self.c
        panel = Panel(vm, spec)
        rot, size = panel.rotate, panel.logical
        # Running, or restarted once already (a kiosk that cannot start is not waited for).
        self.wait("active", lambda: (lambda i: i.get("SubState") == "running" or i.get("NRestarts", "0") != "0")(
            self.show(unit, "SubState", "NRestarts")), 120, 1)
        time.sleep(2)       # a start that fails at once shows now
        info = self.show(unit, "ActiveState", "SubState", "NRestarts")
        log = self.journal(unit)
        started = [l for l in log.splitlines() if "started: video" in l]
        pid = self.app_pid()
        csv = vm.out(f"readlink /proc/{pid}/fd/* | grep -m1 '/frames.csv$'") if pid else ""
        devices = vm.out("ls /dev/dri /dev/fb* 2>&1 | tr '\\n' ' '")
        if panel.tablet:
            # Which of QEMU's pointers gets the buttons (marked *): the tablet once the guest
            # has opened it.
            self.seen += "; QEMU's mice: " + " | ".join(l.strip() for l in vm.monitor("info mice").splitlines() if "Mouse #" in l)
        ok = info.get("SubState") == "running" and info.get("NRestarts") == "0" and bool(started) and bool(csv)
        c.record(f"{name}.ready", ok, f"{unit}: {info.get('ActiveState')} ({info.get('SubState')}), restarts {info.get('NRestarts')}; "
                 + (started[-1] if started else "no 'started:' line; its last lines: " + " | ".join(log.splitlines()[-3:])[:400])
                 + f"; the guest has {devices}" + (f"; {self.seen}" if self.seen else ""))
        checks = ("idle-screen", "pull-arc", "refresh", "fling", "tap", "cpu")
        if not ok:
            self.shot(name, "not-ready")
            for n in checks:
                c.record(f"{name}.{n}", False, f"no kiosk running to check (see {name}.ready; the scanout: {self.out}/{name}-not-ready.png)")
            return
        self.cpu.setdefault(name, {})["start_line"] = started[-1]
        count = lambda: int(vm.out(f"wc -l < {csv}") or 1) - 1
        since = lambda n: csv_rows(vm.out(f"head -1 {csv}; tail -n +{n + 2} {csv}"))
        settle = lambda what, ref, **kw: self.settle(name, what, ref, rotate=rot, **kw)

        ok, text = settle("idle", self.ref("reloaded", size), timeout=60)
        c.record(f"{name}.idle-screen", ok, f"the list at rest before any touch: {text}")

        # A pull: the arc and "Release to refresh" mid-pull; the refresh; the new rows.
        # The journal's outcome lines counted, not read after a cursor: twice a line that
        # was there (journal-BOOT.txt) was not seen after the cursor taken before the pull.
        outcomes = lambda: [l for l in self.journal(unit).splitlines() if "refreshed:" in l or "refresh failed" in l]
        before, seen = count(), len(outcomes())
        panel.play(["down", 0, 360, 200], ["move", 0, 360, 800, 800], ["wait", 1500])
        ok, text = settle("pull", self.ref("pull", size), top=0, bottom=420, timeout=10)
        c.record(f"{name}.pull-arc", ok, f"mid-pull, the top 420 rows (arc, 'Release to refresh'): {text}")
        panel.play(["up", 0])
        line = self.wait("refreshed", lambda: outcomes()[seen:], 30)
        fr = self.wait("rows", lambda: (lambda f: f if any(r.get("rows") != f[0].get("rows") for r in f) else None)(since(before) or [{}]), 15, 1) or since(before)
        states = {r.get("refresh_state") for r in fr}
        rows = [int(r["rows"]) for r in fr if r.get("rows", "").isdigit()]
        ok, text = settle("refreshed", self.ref("refreshed", size), timeout=20)
        c.record(f"{name}.refresh", ok and bool(line) and "refreshed:" in line[0] and "armed" in states and bool(rows) and max(rows) == min(rows) + 3,
                 f"journal: {line[0] if line else 'no outcome line'}; states {sorted(s for s in states if s)}; rows {min(rows) if rows else '?'} -> "
                 f"{max(rows) if rows else '?'}; three new rows on top: {text}")

        # A fling: momentum after the finger lifts, then rest, where frames.csv says the
        # list is: the scanout against the whole list drawn headless, cut at that offset.
        fr, lift, moving, told = self.flick(lambda *st: panel.play(*st, stamps=True), count, since, tablet=panel.tablet)
        final = fr[-1] if fr else {}
        at = float(final.get("content_offset") or 0)
        moved = at - float(lift.get("content_offset", 0)) if lift else 0.0
        # The whole list as the kiosk has it: refreshed (the rows of the reload and three
        # new ones) or, where the pull was lost, not: the fling is checked on its own.
        have = (self.recent_frames(csv, 1) or [{}])[-1].get("rows", "?")
        kind = "refreshed" if have == "43" else "reloaded"
        whole = REFRESH if kind == "refreshed" else "wait 2s\n"
        tall = self.ref("tall", (size[0], TALL)) if kind == "refreshed" else self.headless("tall-reloaded", (size[0], TALL), whole)
        top = max(0, min(int(round(at)), TALL - size[1]))
        ok, text = settle("fling", tall[top:top + size[1]], timeout=10)
        text = f"{text} ({kind} list, {have} rows)"
        c.record(f"{name}.fling", ok and len(moving) >= 2 and abs(moved) > 40 and abs(float(final.get("velocity", 1))) < 0.001,
                 f"{told}the finger lifted at {lift.get('content_offset', '?')} pt; {len(moving)} frames of momentum moved the list {moved:.0f} pt more; "
                 f"at rest at {final.get('content_offset', '?')} ({final.get('ui_state', '?')}); the whole list headless at that offset: {text}")

        # A tap: the row under the finger selected, on the scanout as headless.
        # In the middle of the row nearest 640 pt: the list rests a fraction of a point
        # off a whole one, and a row's edge under the finger (at 927.7 pt, 640 was 0.3 pt
        # above row 28) is either row, here or headless at the offset rounded.
        tap_y = int(round(640 - (640 + at) % ROW_PT + ROW_PT / 2))
        time.sleep(1)
        before = count()
        panel.play(["down", 0, 360, tap_y], ["wait", 60], ["up", 0], ["wait", 1500])
        # frames.csv is streamed, and a turned screen under emulation draws a frame in half
        # a second or more: its tap frame may come after the wait.
        fr = self.wait("tap", lambda: (lambda f: f if any("tap" in r.get("events", "") for r in f) else None)(since(before)), 15, 1) or since(before)
        taps = [i for i, r in enumerate(fr) if "tap" in r.get("events", "")]
        sel = [r.get("selected") for r in fr[taps[0] if taps else 0:] if r.get("selected") not in ("", "-1", None)]
        want = int((tap_y + at) // ROW_PT)
        ref = self.headless(f"tap-{kind}-{top}", (size[0], TALL), whole + f"wait 500ms\ndown 360 {tap_y + top}\nwait 60ms\nup\nwait 1500ms\n")
        ok, text = settle("tap", ref[top:top + size[1]], timeout=5)
        c.record(f"{name}.tap", ok and bool(taps) and sel[-1:] == [str(want)],
                 f"{len(taps)} tap frames, selected row {sel[-1] if sel else 'none'} (under the finger: {want}); "
                 f"headless, the same tap on the {kind} list at {top} pt: {text}")
        self.matrix_cpu(name, panel, pid, csv, spec)

    def matrix_cpu(self, name, panel, pid, csv, spec=None):
        """CPU_GESTURES once from the top, the app's CPU; then at rest (idle-cpu). Without
        a `compare` in the boot's spec, the gestures' CPU over the first boot's kiosk's
        median (`cpu`, at most CPU_BAR); with one, same_panel records `cpu`."""
        c = self.c
        against_kiosk = not (spec or {}).get("compare")
        # The probe around the run on every boot: a `compare` boot's same_panel takes this
        # run as its first and needs it in the probe's units too.
        run, no_probe = self.probed_gestures(panel, pid, csv)
        before, after = run["probe_ms"]
        self.cpu.setdefault(name, {})["gestures"] = run
        app, fr = run["app_s"], run["frames"]
        kiosk = self.cpu.get("kiosk", {}).get("median", {})
        raw = app / max(kiosk["app_s"], 0.01) if kiosk.get("app_s") else None
        # In the probe's units: this boot's CPU over its probe, the kiosk's over its own.
        ratio = raw * kiosk["probe_ms"] / statistics.mean([before, after]) if raw and run["probed"] and kiosk.get("probe_ms") else None
        words = (f"{raw:.2f}x the virtio-gpu kiosk's median {kiosk['app_s']:.2f} s raw; the probe (overscroll replay of the gestures three times) "
                 f"{before or 0:.2f} and {after or 0:.2f} ms a frame around this run, the kiosk's "
                 f"{kiosk.get('probe_ms') or 0:.2f}: {ratio or 0:.2f}x in its units" if raw else "")
        print(f"{ME}: cpu: {name}: app {app:.2f} s over {run['wall_s']:.1f} s, {fr} frames ({run['ms_per_frame']} ms a frame)"
              + (f"; {words}" if words else ""), flush=True)
        if against_kiosk:
            why = no_probe or ("" if ratio or not raw else "the kiosk's runs had no probe")
            self.cpu[name]["ratio"] = {"raw": round(raw, 2), "probed": round(ratio, 2)} if ratio else None
            c.record(f"{name}.cpu", run["refreshed"] and run["tapped"] and not why and (ratio is None or ratio <= CPU_BAR),
                     f"a pull that refreshes, a fling, a fling back and a tap: {self.run_words(run)}"
                     + (f"; {words} (at most {CPU_BAR}x)" if ratio else "; no virtio-gpu kiosk figure to compare")
                     + (f"; no probe: {why}" if why else ""))
        self.idle_cpu(name, pid, csv)

    def probed_gestures(self, panel, pid, csv):
        """gesture_cpu with the probe before and after it: the run with its probes
        (`probe_ms`) and its CPU a frame in units of their mean (`probed`; None where one
        failed), and why a probe failed."""
        before, why = self.probe()
        run = self.gesture_cpu(panel, pid, csv)
        after, why_after = self.probe()
        run["probe_ms"] = [before, after]
        run["probed"] = round(run["ms_per_frame"] / statistics.mean([before, after]), 3) if before and after else None
        return run, why or why_after

    @staticmethod
    def run_words(run):
        return (f"app {run['app_s']:.2f} s of CPU over {run['wall_s']:.1f} s and {run['frames']} frames, {run['ms_per_frame']} ms a frame "
                f"({run['momentum']} of momentum; refreshed {run['refreshed']}, tapped {run['tapped']})")

    def gesture_cpu(self, panel, pid, csv):
        """CPU_GESTURES (fitted to the panel's app) played once from the top: the app's CPU,
        its frames, and the CPU a frame."""
        vm = self.vm
        self.clk_tck = self.clk_tck or int(vm.out("getconf CLK_TCK") or 100)
        gestures = panel.fitted(CPU_GESTURES)
        for _ in range(3):
            if float(self.rest(csv).get("content_offset") or 0) <= 1:
                break
            panel.play(*gestures[9:12])
        n0 = int(vm.out(f"wc -l < {csv}"))
        t0, before = self.cpu_sample(pid)
        panel.play(*gestures)
        self.rest(csv)
        t1, after = self.cpu_sample(pid)
        fr = csv_rows(vm.out(f"head -1 {csv}; tail -n +{n0 + 1} {csv}"))
        app = round(sum(v - before.get(k, 0) for k, v in after.items() if k[0] == "overscroll-app"), 2)
        states = {r.get("refresh_state") for r in fr}
        # The app's own profiler, a frame's mean by phase (frames.csv): where a side's CPU
        # went, beside the process's figure the bar is on.
        phases = {p: round(statistics.fmean(float(r.get(f"{p}_ms") or 0) for r in fr), 3) if fr else None
                  for p in ("cpu", "input", "update", "render", "present")}
        return {"app_s": app, "wall_s": round(t1 - t0, 2), "frames": len(fr), "ms_per_frame": round(1000 * app / max(1, len(fr)), 2),
                "phase_ms": phases,
                "refreshed": "armed" in states and "refreshing" in states,
                "momentum": sum(1 for r in fr if r.get("ui_state") == "momentum"), "tapped": any("tap" in r.get("events", "") for r in fr)}

    def same_panel(self, name, spec, unit):
        """Issue 48's CPU bars on one machine: the boot's kiosk started again as the spec's
        `compare` says (unrotated; on the DRM driver of the same VGA), the same gestures
        played CPU_MATRIX_RUNS times a side, and `cpu`: the boot's CPU a frame over the
        other's, medians, at most CPU_BAR. The sides take turns, A B B A (A: the boot's own
        run first; A B B A A B ... with more runs), so the host's load, which moves TCG's
        speed by half within minutes (unturned 5.5-10.3 ms a frame in four boots,
        2026-12-03), falls on both alike; a side that cannot be gone back to (`one_way`:
        efifb is gone once bochs-drm has the VGA) has its runs first, then the other's."""
        vm, c, cmp = self.vm, self.c, spec["compare"]
        other = dict(spec, rotate=cmp.get("rotate", spec.get("rotate", 0)), kiosk=cmp["kiosk"])
        runs = {"mine": [self.cpu[name]["gestures"]] if self.cpu.get(name, {}).get("gestures") else [], "theirs": []}
        pid = self.app_pid()
        csv = vm.out(f"readlink /proc/{pid}/fd/* | grep -m1 '/frames.csv$'") if pid else ""
        side, why, screen, started = "mine", "", "", ""
        # A B B A A B ...: `order` the sides played, the boot's own run first.
        order, pattern = ["mine"] * len(runs["mine"]), ["mine", "theirs", "theirs", "mine"]
        while len(runs["mine"]) < CPU_MATRIX_RUNS or len(runs["theirs"]) < CPU_MATRIX_RUNS:
            want = "mine" if len(runs["mine"]) < CPU_MATRIX_RUNS else "theirs"
            if not cmp.get("one_way"):
                want = pattern[len(order) % 4] if len(runs[pattern[len(order) % 4]]) < CPU_MATRIX_RUNS else want
            if want != side:
                pid, csv, held, line, why = self.start_side(unit, cmp["kiosk"] if want == "theirs" else spec["kiosk"],
                                                            cmp.get("sh", "true") if want == "theirs" else "true")
                side = want
                if want == "theirs":
                    screen, started = held, line
                if why or (want == "theirs" and cmp.get("opens", "/") not in held):
                    why = why or f"it holds {held or 'no screen'}"
                    break
            if not (pid and csv):
                why = f"no running overscroll-app with a frames.csv (pid {pid})"
                break
            # The run in the probe's units (its CPU a frame over the probe's around it): the
            # emulator's speed, which moves within a side's runs, divided out.
            runs[side].append(self.probed_gestures(Panel(vm, spec if side == "mine" else other), pid, csv)[0])
            order.append(side)
        self.phase(f"{name}: {cmp['what']}")
        mine, theirs = runs["mine"], runs["theirs"]
        self.cpu[name]["runs"] = mine
        self.cpu[name]["compare"] = {"what": cmp["what"], "start_line": started, "screen": screen, "runs": theirs,
                                     "order": "".join("A" if o == "mine" else "B" for o in order)}
        if why or len(mine) < CPU_MATRIX_RUNS or len(theirs) < CPU_MATRIX_RUNS:
            return c.record(f"{name}.cpu", False, f"no {cmp['what']} kiosk to compare with, or this boot's not back: {why} "
                            f"(runs {len(mine)} and {len(theirs)}); start line: {started or 'none'}")
        a, b = (statistics.median(r["ms_per_frame"] for r in runs) for runs in (mine, theirs))
        raw = a / max(b, 0.01)
        probed = all(r.get("probed") for r in mine + theirs)
        pa, pb = (statistics.median(r["probed"] for r in runs) for runs in (mine, theirs)) if probed else (None, None)
        ratio = pa / pb if probed else None
        self.cpu[name]["compare"].update(ms_per_frame=round(b, 2), ratio=round(ratio, 2) if probed else None, raw=round(raw, 2), bar=CPU_BAR)
        self.cpu[name]["ms_per_frame"] = round(a, 2)
        order = self.cpu[name]["compare"]["order"]
        print(f"{ME}: cpu: {name}: {a:.2f} ms a frame (median of {len(mine)}), {cmp['what']} {b:.2f} ms (median of {len(theirs)}), "
              f"played {order}: {raw:.2f}x raw, " + (f"{ratio:.2f}x in the probe's units" if probed else "no probe"), flush=True)
        good = all(r["refreshed"] and r["tapped"] for r in mine + theirs)

        def words(r):
            p = r.get("probe_ms") or [None, None]
            return self.run_words(r) + f", probe {p[0] or 0:.2f} and {p[1] or 0:.2f} ms a frame around it ({r.get('probed') or 0:.2f} probes)"
        c.record(f"{name}.cpu", good and probed and ratio <= CPU_BAR,
                 f"CPU a frame over the same gestures, medians of {len(mine)}, played {order} (A this boot's): this boot {a:.2f} ms, "
                 f"{cmp['what']} on the same machine {b:.2f} ms: {raw:.2f}x raw; in units of the probe around each run (overscroll "
                 f"replay, the emulator's speed then): {pa or 0:.3f} against {pb or 0:.3f}, {ratio or 0:.2f}x (at most {CPU_BAR}x)"
                 + ("" if probed else " -- a probe failed") + "; this boot's runs: "
                 + "; ".join(words(r) for r in mine) + f"; {cmp['what']} (holding {screen}): " + "; ".join(words(r) for r in theirs))

    def start_side(self, unit, settings, sh):
        """The kiosk restarted with `settings` as its boot drop-in (`sh` run first, the unit
        stopped): its pid, frames.csv, the screen it holds, its start line, and why not."""
        vm = self.vm
        kiosk = "".join(f"{k} = {v if re.fullmatch(r'-?[0-9.]+|true|false', v) else json.dumps(v)}\\n" for k, v in settings.items())
        cur = self.cursor()
        rc, said = vm.sh(f"systemctl stop {unit}; {sh} && printf '{kiosk}' > /etc/overscroll/kiosk.toml.d/55-vm-boot.toml "
                         f"&& systemctl start {unit}", 180)
        self.wait("active", lambda: self.show(unit, "SubState").get("SubState") == "running", 120, 1)
        started = [l for l in self.journal(unit, cur).splitlines() if "started: video" in l]
        pid = self.app_pid()
        csv = vm.out(f"readlink /proc/{pid}/fd/* | grep -m1 '/frames.csv$'") if pid else ""
        # The screen it shows on: the device it holds open (the start line names no presenter).
        screen = vm.out(f"readlink /proc/{pid}/fd/* | grep -E '^/dev/(dri/card|fb)' | sort -u | tr '\\n' ' '") if pid else ""
        why = "" if rc == 0 and started and csv else f"{sh} exit {rc} ({' | '.join(said.splitlines()[-2:])[:200]})"
        return pid, csv, screen, started[-1] if started else "", why

    def headless(self, name, size, script):
        """A headless frame drawn now by the same build (overscroll-bench picture, the rows
        of the reload): for what depends on where the kiosk's list came to rest."""
        path = os.path.join(self.args.refs, f"{name}-{size[0]}x{size[1]}")
        with open(path + ".txt", "w") as f:
            f.write(script)
        env = dict(os.environ, SDL_VIDEODRIVER="offscreen", SDL_AUDIODRIVER="dummy")
        p = subprocess.run([self.args.bench_bin, "picture", path + ".txt", "--size", f"{size[0]}x{size[1]}", "--content", self.args.rows,
                            "--out", path + ".ppm"], env=env, capture_output=True, text=True)
        if p.returncode != 0:
            raise SystemExit(f"{ME}: FAIL: overscroll-bench picture {path}.txt: {p.stderr.strip()[-300:]}")
        return read_ppm(path + ".ppm")

    def adopt_runs(self):
        """Runs a matrix boot started on the first boot's unit count as started (the next
        unit's reports-kept checks know them)."""
        new = sorted(self.runs() - set(self.started))
        self.started += new
        if new:
            self.current = new[-1]

    def to_kiosk(self):
        """The KMSDRM unit again (the cage boot enabled cage)."""
        self.vm.sh("systemctl disable overscroll-cage && systemctl enable overscroll-kiosk && "
                   "systemctl set-default multi-user.target && sync", 60)

    # ---- --bench (script/bench-kiosk): only the measurement, and Qt Quick beside it
    def bench_unit(self, unit):
        u = unit.replace("overscroll-", "")
        _, started = self.ready(unit)
        time.sleep(3)
        self.shot(u, "idle")
        self.maps(unit, started[0] if started else "")
        self.cpu_runs(unit)
        self.shot(u, "after-gestures")
        self.phase(f"{unit}: CPU over the gestures")

    def qt(self):
        """Qt Quick's software renderer on linuxfb with DRM dumb buffers, on the screen the
        kiosk had (stopped first): AutoPlay.qml's pull, refresh and flings, QT_RUNS times,
        and its start-up alone as often; CPU of each from exec to exit."""
        vm, c = self.vm, self.c
        vm.sh("echo " + base64.b64encode(QT_RUN.encode()).decode() + " | base64 -d > /tmp/qt-run.py")
        qt = self.cpu.setdefault("qt", {"command": "QT_QPA_PLATFORM=linuxfb QT_QPA_FB_DRM=1 QT_QUICK_BACKEND=software "
                                        "QT_QUICK_CONTROLS_STYLE=Material /usr/lib/qt6/bin/qml qt-autoplay.qml",
                                        "version": vm.out("dpkg-query -W -f '${Version}' qml-qt6"), "autoplay": [], "start-only": []})
        drew = False
        for i in range(QT_RUNS):
            for name, qml in (("autoplay", "qt-autoplay.qml"), ("start-only", "qt-start-only.qml")):
                log = f"/tmp/qt-{name}-{i + 1}.log"
                vm.sh(f"rm -f /tmp/qt.json; (python3 /tmp/qt-run.py {qml} /tmp/qt.json > {log} 2>&1 < /dev/null &)")
                def done():
                    return json.loads(vm.out("cat /tmp/qt.json 2>/dev/null") or "null")
                res = None
                if name == "autoplay":
                    # While it plays (its start-up takes seconds under emulation): what it
                    # maps (first run), and what the screen shows, a screenshot every 2 s, the one with
                    # the most on it kept (it draws on the screen, or not).
                    best, deadline = -1.0, time.monotonic() + 90
                    while res is None and time.monotonic() < deadline:
                        # Its maps as late as they can be read: all it loaded by then.
                        pid = vm.out("grep -lx qml /proc/[0-9]*/comm 2>/dev/null | head -1").split("/") if i == 0 else []
                        if len(pid) > 2:
                            qt["maps_gl"], qt["maps_graphics"] = gl_stack(self.mapped(pid[2]))
                        img = vm.screendump(f"{vm.work}/shot.ppm")
                        spread = float(img.reshape(-1, 3).std(axis=0).max())
                        if spread > best:
                            best = spread
                            write_png(os.path.join(self.out, f"qt-autoplay-{i + 1}.png"), img)
                        time.sleep(2)
                        res = done()
                    drew = drew or best >= 4
                res = res or self.wait("qt", done, 90, 1)
                open(os.path.join(self.out, f"qt-{name}-{i + 1}.log"), "w").write(vm.out(f"cat {log}"))
                res = res or {"exit": None, "cpu_s": None, "wall_s": None}
                qt[name].append(res)
                print(f"{ME}: qt: {name} run {i + 1}: " + (f"CPU {res['cpu_s']:.2f} s over {res['wall_s']:.1f} s, exit {res['exit']}, "
                      f"peak RSS {res['peak_rss_mib']} MiB" if res["cpu_s"] is not None else "did not finish within 90 s")
                      + f" (log {self.out}/qt-{name}-{i + 1}.log)", flush=True)
        ok = [r for r in qt["autoplay"] if r["exit"] == 0] and [r for r in qt["start-only"] if r["exit"] == 0]
        if ok:
            med = {k: round(statistics.median(r["cpu_s"] for r in qt[k] if r["exit"] == 0), 2) for k in ("autoplay", "start-only")}
            wall = {k: round(statistics.median(r["wall_s"] for r in qt[k] if r["exit"] == 0), 2) for k in ("autoplay", "start-only")}
            qt["median"] = {"autoplay_s": med["autoplay"], "start_only_s": med["start-only"],
                            "gestures_s": round(med["autoplay"] - med["start-only"], 2),
                            "autoplay_wall_s": wall["autoplay"], "start_only_wall_s": wall["start-only"]}
            print(f"{ME}: qt: medians of {QT_RUNS}: AutoPlay {med['autoplay']:.2f} s CPU over {wall['autoplay']:.1f} s, start-up alone "
                  f"{med['start-only']:.2f} s over {wall['start-only']:.1f} s: its gestures {qt['median']['gestures_s']:.2f} s; "
                  f"maps {', '.join(qt.get('maps_gl', [])) or 'no GL stack'}", flush=True)
        c.record("qt-linuxfb", bool(ok) and drew,
                 f"Qt Quick {qt['version']} software renderer on linuxfb (DRM dumb buffers): "
                 + ("ran, " if ok else "did not run (logs qt-*.log), ") + ("drew on the screen" if drew else "the screen stayed flat")
                 + f"; screenshots {self.out}/qt-autoplay-*.png")
        self.phase("Qt Quick on linuxfb")

    def bench(self):
        a, vm = self.args, self.vm
        vm.start()
        boot = vm.hello(a.boot_timeout)
        self.phase("boot 1 (to the agent)")
        self.bench_unit("overscroll-kiosk")
        if a.qt:
            vm.sh("systemctl stop overscroll-kiosk", 60)
            self.qt()
        self.to_cage()
        vm.reboot(spec=CAGE_BOOT)
        vm.hello(a.boot_timeout, boot)
        self.phase("boot 2 (to the agent)")
        self.bench_unit("overscroll-cage")
        self.cpu_ratio()
        return self.summary()

def main():
    # --ref-sizes [NAMES]: script/vm-test asks, before any machine, which references to
    # draw (NAMES as --matrix: default CI_BOOTS, "all", or none when empty).
    if sys.argv[1:2] == ["--ref-sizes"]:
        names, unknown = chosen_boots(" ".join(sys.argv[2:]) if len(sys.argv) > 2 else " ".join(CI_BOOTS))
        if unknown:
            print(f"drive.py: --ref-sizes: {unknown_boots(unknown)}", file=sys.stderr)
            return 64
        for w, h in ref_sizes(names):
            print(f"{w}x{h}")
        return 0
    p = argparse.ArgumentParser()
    p.add_argument("--work", required=True)
    p.add_argument("--kernel", required=True)
    p.add_argument("--initrd", required=True)
    p.add_argument("--disk", required=True)
    p.add_argument("--refs")
    p.add_argument("--out", required=True)
    p.add_argument("--accel", default="-accel tcg -cpu max")
    p.add_argument("--rtc", default="2020-06-01T09:00:00")
    p.add_argument("--boot-timeout", type=int, default=300)
    p.add_argument("--console-timeout", type=int, default=90,
                   help="seconds a guest may print nothing on its console before it is taken as not started")
    p.add_argument("--kernel-stall", type=int, default=90,
                   help="seconds a console of the kernel's lines only may stay the same before the guest is booted again (once)")
    p.add_argument("--xfail", default="{}")
    p.add_argument("--strict", action="store_true")
    p.add_argument("--bench", action="store_true", help="only what the app maps and the CPU over the gestures (script/bench-kiosk)")
    p.add_argument("--qt", action="store_true", help="with --bench: Qt Quick on linuxfb (the image's qt variant)")
    p.add_argument("--me", default="vm-test")
    p.add_argument("--arch", default="amd64", choices=sorted(ARCHES), help="the machine (ARCHES); arm64: its one boot (Run.arm64)")
    p.add_argument("--matrix", default=" ".join(CI_BOOTS),
                   help="the matrix's boots to run (MATRIX's names, space-separated; all: every one; default: CI_BOOTS)")
    p.add_argument("--matrix-only", action="store_true", help="only the matrix (the first boot's checks and the cage boot left out)")
    p.add_argument("--bench-bin", help="overscroll-bench, for headless frames drawn during the run")
    p.add_argument("--rows", help="the rows of the reload (the headless frames' --content)")
    args = p.parse_args()
    names, unknown = chosen_boots(args.matrix)
    if unknown:
        p.error(f"--matrix: {unknown_boots(unknown)}")
    args.matrix = " ".join(sorted(names, key=lambda n: not MATRIX[n].get("same_boot")))
    global ME, ARCH
    ME, ARCH = args.me, ARCHES[args.arch]
    run = Run(args)
    try:
        return run.bench() if args.bench else run.arm64() if args.arch == "arm64" else run.main()
    finally:
        run.vm.stop()


if __name__ == "__main__":
    sys.exit(main())
