// The console's frames on a DRM device from dumb buffers (device.c opens it): the
// buffers made and mapped, their framebuffers, the mode set and the page flips, the
// flips' times, the VT's switches and the CRTC given back. Which buffer is free, drawn,
// queued or on the screen, and the bounded waits, are CBufferChain's (chain.h), as for
// CWayland's wl_shm buffers.
#define _GNU_SOURCE
#include "device.h"
#include <drm_fourcc.h>
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

// A lost device answers every ioctl with ENODEV (the driver unbound, the device removed).
static int lost_errno(int e) { return e == ENODEV || e == ENXIO || e == EIO; }

// A request the driver refused with `e`, said in its words with what was asked (`why`).
// For want of memory (a driver whose video memory is full: bochs-drm's 16 MiB with
// fbcon's console in it) the presenter asks for less (`ovs_drm_take_no_memory`); a
// device that went away is lost; anything else fails the frame as before.
static void refused(ovs_drm *d, int e, const char *format, ...) {
    va_list args;
    va_start(args, format);
    int used = vsnprintf(d->why, sizeof d->why, format, args);
    va_end(args);
    if (used >= 0 && (size_t)used < sizeof d->why)
        snprintf(d->why + used, sizeof d->why - (size_t)used, ": %s (%s)", strerror(e), d->info.driver);
    if (e == ENOMEM || e == ENOSPC) d->no_memory = 1;
    if (lost_errno(e)) d->broken = 1;
    errno = e;
}

// MARK: Buffers

static void drop_fb(ovs_drm *d, ovs_dumb_buffer *b) {
    if (b->fb) drmModeRmFB(d->fd, b->fb);
    b->fb = 0;
}

static void drop(ovs_drm *d, ovs_dumb_buffer *b) {
    drop_fb(d, b);
    if (b->shown_fb) drmModeRmFB(d->fd, b->shown_fb);
    if (b->pixels) munmap(b->pixels, b->size);
    if (b->handle) {
        struct drm_mode_destroy_dumb destroy = { .handle = b->handle };
        drmIoctl(d->fd, DRM_IOCTL_MODE_DESTROY_DUMB, &destroy);
    }
    memset(b, 0, sizeof *b);
}

// A framebuffer showing the buffer from pixel (`x`, `y`) on (framebuffer offsets: a ring
// row, or a turned screen's ring column, 4 bytes a pixel on), or all of it (source
// rectangle). One buffer drawn where it is shown (the chain's `most` 1) is shown from
// its next row through a second framebuffer: the one on the screen goes only once the
// flip away from it is done (a framebuffer removed while scanned out turns the CRTC off).
static int framebuffer(ovs_drm *d, ovs_dumb_buffer *b, int x, int y) {
    uint32_t fb_offset = d->info.source_offset ? 0 : (uint32_t)y * b->pitch + (uint32_t)x * 4;
    if (b->fb && b->fb_offset == fb_offset) return 1;
    if (b->shown_fb && b->shown_fb != d->scanout_fb) {
        drmModeRmFB(d->fd, b->shown_fb);
        b->shown_fb = 0;
    }
    if (b->fb && b->fb == d->scanout_fb && !b->shown_fb) {
        b->shown_fb = b->fb;
        b->fb = 0;
    }
    drop_fb(d, b);
    uint32_t handles[4] = { b->handle }, pitches[4] = { b->pitch }, offsets[4] = { fb_offset };
    int width = d->info.source_offset ? b->columns : b->width, height = d->info.source_offset ? b->rows : b->height;
    if (drmModeAddFB2(d->fd, (uint32_t)width, (uint32_t)height, DRM_FORMAT_XRGB8888, handles, pitches, offsets, &b->fb, 0) != 0) {
        b->fb = 0;
        refused(d, errno, "a framebuffer of %dx%d over a dumb buffer of %dx%d", width, height, b->columns, b->rows);
        return 0;
    }
    b->fb_offset = fb_offset;
    return 1;
}

// What ovs_drm_acquire asks for: `rows` rows of `columns` pixels, `width` x `height` shown.
typedef struct { int width, height, columns, rows; } size_wanted;

static int make(ovs_drm *d, ovs_dumb_buffer *b, const size_wanted *want) {
    int width = want->width, height = want->height, columns = want->columns, rows = want->rows;
    struct drm_mode_create_dumb create = { .width = (uint32_t)columns, .height = (uint32_t)rows, .bpp = 32 };
    // What is asked, in the words said if it is refused: the pixels and (at 4 bytes a
    // pixel, before the driver's pitch) the bytes.
    unsigned long long bytes = (unsigned long long)columns * (unsigned long long)rows * 4;
    if (drmIoctl(d->fd, DRM_IOCTL_MODE_CREATE_DUMB, &create) != 0) {
        refused(d, errno, "a dumb buffer of %dx%d (%llu bytes, buffer %d)", columns, rows, bytes, (int)(b - d->buffers) + 1);
        return 0;
    }
    *b = (ovs_dumb_buffer){ .handle = create.handle, .pitch = create.pitch, .size = create.size, .width = width,
                            .height = height, .columns = columns, .rows = rows };
    struct drm_mode_map_dumb map = { .handle = create.handle };
    int e;
    if (drmIoctl(d->fd, DRM_IOCTL_MODE_MAP_DUMB, &map) != 0) {
        e = errno;
        drop(d, b);
        refused(d, e, "the mapping of a dumb buffer of %dx%d (%llu bytes)", columns, rows, bytes);
        return 0;
    }
    void *pixels = mmap(NULL, b->size, PROT_READ | PROT_WRITE, MAP_SHARED, d->fd, (off_t)map.offset);
    if (pixels == MAP_FAILED) {
        e = errno;
        drop(d, b);
        refused(d, e, "mmap of a dumb buffer of %dx%d (%llu bytes)", columns, rows, bytes);
        return 0;
    }
    b->pixels = pixels;
    return 1;
}

static void flip_done(int fd, unsigned int sequence, unsigned int sec, unsigned int usec, void *data) {
    (void)fd; (void)sequence;
    ovs_drm *d = data;
    // None queued: an event from before the VT switched away, or a new size.
    if (!ovs_chain_flipped(&d->chain)) return;
    d->scanout_fb = d->queued_fb;
    // The vblank the flip happened at: when the frame left for the glass.
    d->shown_seq = d->pending_seq;
    d->shown_usec = (long long)sec * 1000000 + usec;
    // Told in order; past 8 untold (nobody asks), the oldest goes.
    if (d->heard_count == 8) { d->heard_first = (d->heard_first + 1) % 8; d->heard_count--; }
    int k = (d->heard_first + d->heard_count++) % 8;
    d->heard_seq[k] = d->shown_seq;
    d->heard_usec[k] = d->shown_usec;
    d->flips++;
}

// Reads the flip events that arrived, waiting at most `timeout_ms` for one. -1 once the
// device is lost.
static int pump(ovs_drm *d, int timeout_ms) {
    if (d->broken) return -1;
    struct pollfd p = { .fd = d->fd, .events = POLLIN };
    int ready = poll(&p, 1, timeout_ms);
    if (ready < 0) return errno == EINTR ? 0 : -1;
    if (ready == 0) return 0;
    if (p.revents & (POLLHUP | POLLERR | POLLNVAL)) { d->broken = 1; return -1; }
    drmEventContext events = { .version = 2, .page_flip_handler = flip_done };
    if (drmHandleEvent(d->fd, &events) != 0 && lost_errno(errno)) { d->broken = 1; return -1; }
    return 0;
}

// A device that went away may just fall silent (no flip event, no hang-up on the fd):
// one ioctl says. On the stack, without libdrm's allocations: it is asked every frame.
static void probe(ovs_drm *d) {
    struct drm_mode_crtc crtc = { .crtc_id = d->crtc_id };
    if (drmIoctl(d->fd, DRM_IOCTL_MODE_GETCRTC, &crtc) != 0 && lost_errno(errno)) d->broken = 1;
    d->probed_ms = ovs_chain_monotonic_ms();
}

// The chain's table (chain.h): the waits' end, a buffer made, fitted, dropped.
static int chain_pump(void *d, int timeout_ms) { return pump(d, timeout_ms); }
static int chain_make(void *d, int slot, const void *want) {
    return make(d, &((ovs_drm *)d)->buffers[slot], want);
}
static int chain_fits(void *d, int slot, const void *want) {
    const ovs_dumb_buffer *b = &((ovs_drm *)d)->buffers[slot];
    const size_wanted *w = want;
    return b->width == w->width && b->height == w->height && b->columns == w->columns && b->rows == w->rows;
}
static void chain_drop(void *d, int slot) { drop(d, &((ovs_drm *)d)->buffers[slot]); }
static int chain_silent(void *d) {
    probe(d);
    return ((ovs_drm *)d)->broken ? -1 : 0;
}
// The kernel takes one flip at a time: its event is the last queued one's.
const ovs_chain_ops ovs_drm_chain_ops = {
    .pump = chain_pump, .make = chain_make, .fits = chain_fits, .drop = chain_drop, .silent = chain_silent, .one_queued = 1,
    // A flip takes a vblank or so: one not done in 5 s never will be (issue 48: a driver
    // that kept one pending left the kiosk skipping every frame, silently, for ever).
    .stall_ms = 5000,
};

// A flip pending past the chain's `stall_ms` while the screen is ours: the run ends
// saying so (`ovs_drm_stalled`). Away on another VT a flip may wait for it to come back.
static int stall(ovs_drm *d) {
    if (!d->active) return 0;
    d->stalled = 1;
    d->broken = 1;
    return -1;
}

uint32_t *ovs_drm_acquire(ovs_drm *d, int width, int height, int columns, int rows, int x, int y, int most,
                          int timeout_ms, int *stride, int *index, int *fresh) {
    ovs_chain_cancel(&d->chain);
    if (d->broken || !d->active) return NULL;
    if (width <= 0 || height <= 0 || x < 0 || y < 0 || columns < width + x || rows < height + y) return NULL;
    if (width > d->info.width || height > d->info.height) return NULL;
    size_wanted want = { width, height, columns, rows };
    // Another size: all go, the shown one too (the mode is set again with the next). One
    // buffer from now on (drawn where it is shown: the driver had memory for no second):
    // the others go, or all where the one on the screen is not the first.
    if (ovs_chain_reshape(&d->chain, &want)) d->modeset = 1;
    if (most == 1 && d->chain.count > 1 && !ovs_chain_trim(&d->chain, 1)) {
        ovs_chain_clear(&d->chain);
        d->modeset = 1;
    }
    d->no_memory = 0;
    int slot = ovs_chain_acquire(&d->chain, &want, most < ovs_drm_most ? most : ovs_drm_most, timeout_ms);
    if (slot == ovs_chain_stalled) stall(d);
    if (slot < 0) return NULL;
    ovs_dumb_buffer *b = &d->buffers[slot];
    if (!framebuffer(d, b, x, y)) { ovs_chain_cancel(&d->chain); return NULL; }
    b->x = x;
    b->y = y;
    d->damaged = 0;
    *stride = (int)(b->pitch / 4);
    *index = slot;
    *fresh = ovs_chain_take_fresh(&d->chain, slot);
    return b->pixels;
}

void ovs_drm_damage(ovs_drm *d, int x, int y, int width, int height) {
    if (!d->info.damage_clips || d->chain.current < 0 || width <= 0 || height <= 0) return;
    // Framebuffer coordinates: the window's pixels from the plane's source pixel on.
    const ovs_dumb_buffer *shown = &d->buffers[d->chain.current];
    int left = x + (d->info.source_offset ? shown->x : 0), top = y + (d->info.source_offset ? shown->y : 0);
    struct drm_mode_rect r = { left, top, left + width, top + height };
    if (d->damaged < 8) { d->damage[d->damaged++] = r; return; }
    struct drm_mode_rect *b = &d->damage[7];
    if (r.x1 < b->x1) b->x1 = r.x1;
    if (r.y1 < b->y1) b->y1 = r.y1;
    if (r.x2 > b->x2) b->x2 = r.x2;
    if (r.y2 > b->y2) b->y2 = r.y2;
}

static int commit_atomic(ovs_drm *d, ovs_dumb_buffer *b) {
    drmModeAtomicReq *req = drmModeAtomicAlloc();
    if (!req) return -1;
    uint32_t p = d->plane_id;
    int src_x = d->info.source_offset ? b->x : 0, src_y = d->info.source_offset ? b->y : 0;
    drmModeAtomicAddProperty(req, p, d->p_fb, b->fb);
    drmModeAtomicAddProperty(req, p, d->p_crtc, d->crtc_id);
    drmModeAtomicAddProperty(req, p, d->p_src_x, (uint64_t)src_x << 16);
    drmModeAtomicAddProperty(req, p, d->p_src_y, (uint64_t)src_y << 16);
    drmModeAtomicAddProperty(req, p, d->p_src_w, (uint64_t)b->width << 16);
    drmModeAtomicAddProperty(req, p, d->p_src_h, (uint64_t)b->height << 16);
    drmModeAtomicAddProperty(req, p, d->p_crtc_x, 0);
    drmModeAtomicAddProperty(req, p, d->p_crtc_y, 0);
    drmModeAtomicAddProperty(req, p, d->p_crtc_w, (uint64_t)b->width);
    drmModeAtomicAddProperty(req, p, d->p_crtc_h, (uint64_t)b->height);
    // What changed, where the driver is trusted with it (none: the whole plane, as before).
    uint32_t blob = 0;
    if (d->p_damage && d->damaged > 0
        && drmModeCreatePropertyBlob(d->fd, d->damage, sizeof d->damage[0] * (size_t)d->damaged, &blob) == 0)
        drmModeAtomicAddProperty(req, p, d->p_damage, blob);
    int r = drmModeAtomicCommit(d->fd, req, DRM_MODE_PAGE_FLIP_EVENT | DRM_MODE_ATOMIC_NONBLOCK, d);
    int e = errno;
    if (blob) drmModeDestroyPropertyBlob(d->fd, blob);
    drmModeAtomicFree(req);
    errno = e;
    return r;
}

int ovs_drm_commit(ovs_drm *d) {
    if (d->broken) return -1;
    d->no_memory = 0;
    d->commit_seq = 0;
    int index = ovs_chain_cancel(&d->chain);
    if (index < 0) return 0;
    ovs_dumb_buffer *b = &d->buffers[index];
    // Not ours now (another VT): nothing is shown; the buffer is written again in full
    // when the VT comes back.
    if (!d->active) return 0;
    int r;
    if (d->modeset) {
        // Blocking, once: the mode, the connector and the first frame.
        int x = d->info.source_offset ? b->x : 0, y = d->info.source_offset ? b->y : 0;
        r = drmModeSetCrtc(d->fd, d->crtc_id, b->fb, (uint32_t)x, (uint32_t)y, &d->connector_id, 1, &d->mode);
        if (r == 0) {
            d->modeset = 0;
            d->scanout_fb = b->fb;
            ovs_chain_show(&d->chain, index);
            d->flips++;
            return 0;
        }
    } else {
        r = d->info.atomic ? commit_atomic(d, b) : drmModePageFlip(d->fd, d->crtc_id, b->fb, DRM_MODE_PAGE_FLIP_EVENT, d);
        if (r != 0 && errno == EBUSY) {
            // The flip before is still pending (a caller that did not wait): wait, once.
            if (ovs_drm_wait_frame(d, 100) < 0) return -1;
            r = d->info.atomic ? commit_atomic(d, b) : drmModePageFlip(d->fd, d->crtc_id, b->fb, DRM_MODE_PAGE_FLIP_EVENT, d);
        }
        if (r == 0) {
            d->queued_fb = b->fb;
            ovs_chain_queue(&d->chain, index);
            d->pending_seq = d->commit_seq = ++d->flip_seq;
            return 0;
        }
    }
    int e = errno;
    // No room for the buffer on the screen (video memory full: the driver pins it there
    // to show it): not lost; the frame is not shown, and the presenter asks for less.
    if (e == ENOMEM || e == ENOSPC) {
        refused(d, e, "%s of a dumb buffer of %dx%d (%llu bytes)", d->modeset ? "the mode set" : "a page flip", b->columns, b->rows,
                (unsigned long long)b->size);
        ovs_chain_spoil(&d->chain, index);
        return ovs_drm_no_room;
    }
    // The first mode set refused: the screen was never ours (another master took it
    // since the open). Nothing was shown; the run ends saying so (`ovs_drm_refused`).
    if (d->flips == 0 && (errno == EACCES || errno == EPERM)) {
        d->refused = 1;
        d->broken = 1;
        return -1;
    }
    // Master taken from us (a VT switch that did not ask, another program): not lost.
    if (errno == EACCES || errno == EPERM || errno == EBUSY || errno == EINTR) {
        ovs_chain_spoil(&d->chain, index);
        return 0;
    }
    d->broken = 1;
    return -1;
}

// The last flip done: none queued.
static int flipped(void *d) { return ovs_chain_count(&((ovs_drm *)d)->chain, ovs_chain_queued) == 0; }

int ovs_drm_wait_frame(ovs_drm *d, int timeout_ms) {
    int r = ovs_chain_wait(&d->chain, flipped, d, timeout_ms);
    return r == ovs_chain_stalled ? stall(d) : r;
}

int ovs_drm_broken(ovs_drm *d) {
    // A run at rest makes no ioctl that would fail: asked at most twice a second.
    if (!d->broken && ovs_chain_monotonic_ms() - d->probed_ms >= 500) probe(d);
    return d->broken;
}
int ovs_drm_active(const ovs_drm *d) { return d->active; }
int ovs_drm_refused(const ovs_drm *d) { return d->refused; }
int ovs_drm_stalled(const ovs_drm *d) { return d->stalled ? d->chain.ops->stall_ms : 0; }
const char *ovs_drm_take_no_memory(ovs_drm *d) {
    if (!d->no_memory) return NULL;
    d->no_memory = 0;
    return d->why;
}
int ovs_drm_buffers(const ovs_drm *d) { return d->chain.count; }
long ovs_drm_flips(const ovs_drm *d) { return d->flips; }
long ovs_drm_commit_sequence(const ovs_drm *d) { return d->commit_seq; }
long ovs_drm_next_shown(ovs_drm *d, long long *usec) {
    if (d->heard_count == 0) { *usec = d->shown_usec; return d->shown_seq; }
    int k = d->heard_first;
    d->heard_first = (d->heard_first + 1) % 8;
    d->heard_count--;
    *usec = d->heard_usec[k];
    return d->heard_seq[k];
}

int ovs_drm_release(ovs_drm *d) {
    // A flip in flight completes on its own; its event is read when the VT comes back.
    d->active = 0;
    if (drmDropMaster(d->fd) != 0 && lost_errno(errno)) { d->broken = 1; return -1; }
    return 0;
}

int ovs_drm_reacquire(ovs_drm *d) {
    if (drmSetMaster(d->fd) != 0) {
        if (lost_errno(errno)) d->broken = 1;
        return -1;
    }
    d->active = 1;
    d->modeset = 1;
    ovs_chain_forget(&d->chain);
    // Whatever showed meanwhile may have drawn over nothing of ours, but the frame is
    // written whole again: the presenter's idea of each buffer starts over.
    ovs_chain_spoil(&d->chain, -1);
    return 0;
}

void ovs_drm_destroy(ovs_drm *d) {
    if (!d) return;
    if (d->active && !d->broken && d->saved) {
        // The console's framebuffer as it was (fbcon's); a CRTC that showed nothing is
        // switched off, and the kernel's fbdev emulation takes over when the fd closes.
        if (d->saved->mode_valid && d->saved->buffer_id)
            drmModeSetCrtc(d->fd, d->saved->crtc_id, d->saved->buffer_id, d->saved->x, d->saved->y,
                           &d->connector_id, 1, &d->saved->mode);
        else
            drmModeSetCrtc(d->fd, d->crtc_id, 0, 0, 0, NULL, 0, NULL);
    }
    ovs_chain_clear(&d->chain);
    if (d->saved) drmModeFreeCrtc(d->saved);
    close(d->fd);
    free(d);
}

int ovs_drm_vblank(const ovs_drm *d, int *error) { return ovs_drm_crtc_vblank(d->fd, d->crtc_id, error); }
