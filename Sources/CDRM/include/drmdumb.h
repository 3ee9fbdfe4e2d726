#ifndef OVS_DRMDUMB_H
#define OVS_DRMDUMB_H
#include <stdint.h>

// Frames shown straight on a DRM device from dumb buffers (memory the display controller
// scans out, written by the CPU): the console's CPU path, with no GBM, EGL or Mesa.
// ovs_drm_acquire/commit/wait_frame follow the shape of CWayland's wl_shm chain (both
// drive CBufferChain's state machine), so the same shared-memory presenter drives either
// (Presenters/Shared/BufferChain.swift).

enum { ovs_drm_most = 3 };
// What ovs_drm_commit returns when the driver had no memory to show the buffer.
enum { ovs_drm_no_room = -2 };

typedef struct ovs_drm ovs_drm;

// What the device shows and how, once opened.
typedef struct {
    int width, height;          // the connector's preferred mode
    int refresh_mhz;            // its refresh rate in millihertz (0: unknown)
    int mm_width, mm_height;    // the connector's physical size (0: unknown)
    char path[64];              // /dev/dri/card0
    char driver[32];            // the kernel driver (drmGetVersion)
    char connector[32];         // "Virtual-1", "HDMI-A-1"
    char seen[256];             // every connector of the card: "Virtual-1 connected 720x1280, Virtual-2 not connected"
    int atomic;                 // page flips are atomic commits (else legacy drmModePageFlip)
    int source_offset;          // a ring offset moves the plane's source rectangle (else the framebuffer's offset)
    int from_start;             // a buffer is shown from its first pixel only, whatever either says (qxl)
    int damage_clips;           // flips carry FB_DAMAGE_CLIPS (`ovs_drm_damage_clips_trusted`)
} ovs_drm_info;

// Opens `path` (NULL: the first /dev/dri/card* with a connected connector), takes its
// connector named `output` (any case; NULL: the first connected one), at its preferred
// mode, and a CRTC for it, and remembers that CRTC's
// state to give back. NULL with the reason in `why` (naming the device and the fix),
// also where another program is its DRM master (the screen would never be ours).
ovs_drm *ovs_drm_open(const char *path, const char *output, char *why, int why_size);
void ovs_drm_get_info(const ovs_drm *d, ovs_drm_info *info);

// A buffer nobody scans out: `rows` rows of `columns` XRGB8888 pixels, of which the
// `width` x `height` from pixel (`x`, `y`) on are shown once committed (a ring of rows
// is taller than the screen; a turned screen's ring of columns, wider). Waits at most `timeout_ms`
// for a page flip to free one. NULL when none came free, the device is lost or the VT
// is not ours (`ovs_drm_active`), or the driver refused the memory (`ovs_drm_take_no_memory`).
uint32_t *ovs_drm_acquire(ovs_drm *d, int width, int height, int columns, int rows, int x, int y, int most,
                          int timeout_ms, int *stride, int *index, int *fresh);
// Window pixels in the rectangle differ in the acquired buffer from what is shown: sent as
// FB_DAMAGE_CLIPS with its flip, where `info.damage_clips`.
void ovs_drm_damage(ovs_drm *d, int x, int y, int width, int height);
// Whether `driver` on kernel `release` (uname -r) applies FB_DAMAGE_CLIPS right across a
// flip to another buffer: every driver but virtio_gpu before 6.6.15, 6.7.3 and 6.8, and
// vmwgfx before 6.8.
int ovs_drm_damage_clips_trusted(const char *driver, const char *release);
// Shows the acquired buffer: the mode set on the first commit (and after the VT came
// back), a page flip on vblank after. 0, or -1 once the device is lost, or ovs_drm_no_room
// when the driver had no memory to show it (ENOMEM: `ovs_drm_take_no_memory`; the frame
// is not shown, and the device is not lost).
int ovs_drm_commit(ovs_drm *d);
// Waits for the last page flip's event at most `timeout_ms`: 1 when shown (or nothing
// pending), 0 on time out, -1 once the device is lost.
int ovs_drm_wait_frame(ovs_drm *d, int timeout_ms);
// The device is gone (unplugged, the driver unbound): nothing will be shown again. A
// run at rest makes no call that would fail, so this asks the device (an ioctl) when it
// was not asked in the last half second.
int ovs_drm_broken(ovs_drm *d);
// Whether the device is ours to show on (not while another VT is shown).
int ovs_drm_active(const ovs_drm *d);
// Whether the first mode set was refused (EACCES: another program became DRM master
// after the open): nothing was ever shown, and the device counts as broken.
int ovs_drm_refused(const ovs_drm *d);
// Whether a page flip stayed pending past its limit while the screen was ours (then the
// device counts as broken): the limit in ms, or 0.
int ovs_drm_stalled(const ovs_drm *d);
// Why the last acquire or commit was refused for want of memory (ENOMEM, ENOSPC), in the
// driver's words with what was asked ("a page flip of a dumb buffer of 1984x800 (6348800
// bytes): Cannot allocate memory (bochs-drm)"); NULL when it was not. Said once.
const char *ovs_drm_take_no_memory(ovs_drm *d);
// The VT switched away (drops DRM master) or back (takes it, sets the mode again on the
// next commit, every buffer fresh). 0, or -1 with errno.
int ovs_drm_release(ovs_drm *d);
int ovs_drm_reacquire(ovs_drm *d);
int ovs_drm_buffers(const ovs_drm *d);
long ovs_drm_flips(const ovs_drm *d);
// The number the last commit's page flip got (1, 2, …); 0 when it queued none (the
// mode set, a VT not ours): that frame's scanout time will not be known.
long ovs_drm_commit_sequence(const ovs_drm *d);
// The oldest flip whose event was read and not yet told here (its number) and its
// vblank's time in CLOCK_MONOTONIC microseconds, as the kernel stamped the event; when
// every one was told, the last one again (0 before any). Each flip is told once, in order.
long ovs_drm_next_shown(ovs_drm *d, long long *usec);
// Gives the CRTC back as it was, frees the buffers, closes the device.
void ovs_drm_destroy(ovs_drm *d);

// ---- What a flip event's time is (vblank.c).

// What a page-flip event's time is on a CRTC. Where the driver counts vblanks, DRM stamps
// the event with the vblank the flip happened at. Where it has none (virtio-gpu, bochs,
// simpledrm and other simple KMS drivers: no drm_vblank_init), DRM sends the event when
// the commit is done, stamped then, with sequence 0: no wait for a vblank is in that time.
// DRM answers a vblank query on such a device with EOPNOTSUPP, whatever the CRTC.
enum {
    ovs_drm_vblank_unknown = -1,    // the query failed otherwise (errno in *error)
    ovs_drm_vblank_none = 0,        // the driver counts no vblanks
    ovs_drm_vblank_counted = 1,     // the CRTC's vblank counter answered
};

// Asks `crtc_id`'s vblank counter on the DRM file `fd` (drmCrtcGetSequence, Linux 4.15+):
// one ioctl, no wait. A CRTC that is off answers EINVAL even where vblanks exist: unknown.
int ovs_drm_crtc_vblank(int fd, uint32_t crtc_id, int *error);
// The same for the CRTC the device shows on.
int ovs_drm_vblank(const ovs_drm *d, int *error);

// ---- Facts for the choice between GL and dumb buffers, gathered without Mesa.

typedef struct {
    char node[64];      // /dev/dri/renderD128
    char driver[32];    // the kernel driver's name (drmGetVersion)
    int has_3d;         // virtio_gpu: whether the host gives it 3D (VIRTGPU_PARAM_3D_FEATURES); -1 elsewhere or unknown
} ovs_drm_render_node;

// The render nodes in `dir` (normally /dev/dri), at most `most`: how many, or -1 when
// `dir` cannot be read.
int ovs_drm_render_nodes(const char *dir, ovs_drm_render_node *nodes, int most);
// Whether a library file `name` (libEGL.so.1) is installed in the system's library
// directories: looked for, never loaded.
int ovs_drm_library_installed(const char *name);

// ---- The virtual terminal the display belongs to.

typedef struct ovs_vt ovs_vt;
// Takes the VT on `fd` (the controlling terminal if -1): KD_GRAPHICS, and VT_PROCESS
// switching with SIGUSR1 (release) and SIGUSR2 (acquire), whose handler only sets
// flags (`ovs_vt_pending`): the frame loop answers at its next frame, or at the end of
// its sleep on input (at most a second at rest). NULL with why when there is no VT to take (not on a VT).
ovs_vt *ovs_vt_take(int fd, char *why, int why_size);
// What the kernel asked since last time: 1 release, 2 acquire, 0 nothing.
int ovs_vt_pending(ovs_vt *vt);
// Answers a release (after the DRM master is dropped) or an acquire (before it is taken).
int ovs_vt_release_done(ovs_vt *vt);
int ovs_vt_acquire_done(ovs_vt *vt);
// The VT's number (tty1: 1).
int ovs_vt_number(const ovs_vt *vt);
// KD_TEXT and VT_AUTO again.
void ovs_vt_give_back(ovs_vt *vt);

#endif
