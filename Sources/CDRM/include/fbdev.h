#ifndef OVS_FBDEV_H
#define OVS_FBDEV_H
#include <stdint.h>
#include <linux/fb.h>

// Frames shown on a Linux framebuffer device (/dev/fb0: efifb, vesafb, a board's simple
// framebuffer) where there is no DRM device: the console's CPU path on kernels without
// simpledrm (Debian 12's). The screen's memory is mapped and written where it is shown:
// where the driver cannot pan, only the pixels that changed (the list's ring pinned to
// the screen's top); where it pans (yres_virtual above yres), the memory holds the list's
// ring and a scroll is a pan. The same
// shared-memory presenter drives it as drives DRM dumb buffers and wl_shm
// (Presenters/Shared/BufferChain.swift): one buffer, no flip events to wait for.

typedef struct ovs_fb ovs_fb;

// The device's ioctls go through this (tests give a fake device: a regular file and
// screen infos of their own); NULL: the kernel's ioctl.
typedef int (*ovs_fb_ioctl_fn)(void *context, int fd, unsigned long request, void *argument);

typedef struct {
    int width, height;          // the visible mode (xres, yres)
    int virtual_height;         // yres_virtual: rows of memory a pan may show from
    int stride;                 // pixels a row (line_length / 4)
    int can_pan;                // FBIOPAN_DISPLAY in y works (ypanstep 1, yres_virtual > yres)
    int mm_width, mm_height;    // the panel's size (0: unknown)
    char path[64];              // /dev/fb0
    char id[20];                // the driver's name for it ("EFI VGA", "VESA VGA")
} ovs_fb_info;

// Opens `path`, asks FBIOGET_VSCREENINFO/FSCREENINFO, refuses any format but 32 bpp
// XRGB8888 (naming the format and the fix) and maps the screen's memory. NULL with the
// reason in `why`.
ovs_fb *ovs_fb_open(const char *path, ovs_fb_ioctl_fn ioctl_fn, void *context, char *why, int why_size);
void ovs_fb_get_info(const ovs_fb *f, ovs_fb_info *info);

// The buffer the frame is written into: `rows` rows of `width` pixels, of which the
// `height` from row `offset` on are shown once committed. Where the driver pans and the
// rows fit its memory, the screen's memory itself (a commit pans); where it does not pan
// and `rows` is the screen's height, the screen's memory too (written where it is shown);
// else a shadow in ordinary memory (a commit copies what was damaged: a panned device
// whose pans stopped working). NULL while the VT is not ours, or when the size does not
// fit the screen.
uint32_t *ovs_fb_acquire(ovs_fb *f, int width, int height, int rows, int offset, int *stride, int *fresh);
// Window pixels in the rectangle differ from what the screen shows.
void ovs_fb_damage(ovs_fb *f, int x, int y, int width, int height);
// Shows the acquired buffer: copies the damage from the shadow (all of it after a fresh
// buffer or a new offset), or pans, or nothing (written where shown). 0, or -1 once the device refuses a pan for good.
int ovs_fb_commit(ovs_fb *f);
// The VT switched away (nothing written to the screen until it comes back) or back (the
// next frame is written whole).
void ovs_fb_release(ovs_fb *f);
void ovs_fb_reacquire(ovs_fb *f);
int ovs_fb_active(const ovs_fb *f);
// Commits that reached the screen, pans among them, and pixels copied to it (tests, --verbose).
long ovs_fb_commits(const ovs_fb *f);
long ovs_fb_pans(const ovs_fb *f);
long ovs_fb_copied(const ovs_fb *f);
// Blanks what it drew, unmaps and closes.
void ovs_fb_destroy(ovs_fb *f);

#endif
