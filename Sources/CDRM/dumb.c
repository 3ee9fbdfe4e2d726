#define _GNU_SOURCE
#include "drmdumb.h"
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    uint32_t handle;        // the dumb buffer
    uint32_t pitch;         // bytes a row (the kernel's, at least width * 4)
    uint64_t size;
    uint32_t *pixels;       // mapped
    uint32_t fb;            // the framebuffer over it (0: none yet)
    uint32_t fb_offset;     // the byte the framebuffer starts from (framebuffer offsets)
    int width, height;      // shown
    int columns, rows;      // the memory: a ring is wider (a turned screen's) or taller
    int x, y;               // the pixel the acquired frame shows from
    int fresh;              // never handed out, or its contents no longer on any screen
} Buffer;

struct ovs_drm {
    int fd;
    ovs_drm_info info;
    uint32_t connector_id, crtc_id, plane_id;
    int crtc_index;
    drmModeModeInfo mode;
    drmModeCrtc *saved;         // the CRTC as it was, given back at the end
    // Atomic property ids of the primary plane.
    uint32_t p_fb, p_crtc, p_src_x, p_src_y, p_src_w, p_src_h, p_crtc_x, p_crtc_y, p_crtc_w, p_crtc_h;
    uint32_t p_damage;          // FB_DAMAGE_CLIPS, where sent (`info.damage_clips`)
    struct drm_mode_rect damage[8];
    int damaged;                // clips for the acquired buffer; past 8, their bounding box
    Buffer buffers[ovs_drm_most];
    int count;
    int current;        // acquired, -1 when none
    int shown;          // on the screen, -1 when none of ours
    int pending;        // committed, its flip not yet done; -1 when none
    int modeset;        // the next commit sets the mode (first, and after the VT came back)
    int broken;
    int refused;        // the first mode set was refused: another program is DRM master
    int active;         // the device is ours (DRM master) to show on
    long flips;
    long flip_seq;      // numbers the page flips queued (the mode set is not one: no event)
    long pending_seq;   // the pending flip's number
    long commit_seq;    // the last commit's flip number; 0 when it queued none
    long shown_seq;     // the last flip whose event came, and its vblank (CLOCK_MONOTONIC us)
    long long shown_usec;
    // The flips whose events came and were not yet told (`ovs_drm_next_shown`), oldest
    // first. A flip's event not yet looked for is read by the next frame's acquire; where
    // the driver has no vblank (virtio-gpu, bochs: DRM sends the event as the commit
    // ends) that frame's own flip can end before the loop looks too, and each is a
    // frame's: keeping only the last lost the other's touch to scanout (issue 51,
    // docs/performance.md "In the VM").
    long heard_seq[8];
    long long heard_usec[8];
    int heard_first, heard_count;
    double probed_ms;   // when `probe` last asked
};

static void fail(char *why, int why_size, const char *format, const char *a, const char *b) {
    if (why && why_size > 0) snprintf(why, (size_t)why_size, format, a, b);
}

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1000 + (double)t.tv_nsec / 1e6;
}

// A lost device answers every ioctl with ENODEV (the driver unbound, the device removed).
static int lost_errno(int e) { return e == ENODEV || e == ENXIO || e == EIO; }

// MARK: Opening

// A connector's name as the kernel's logs and sysfs say it: "HDMI-A-1", "Virtual-1".
static void connector_name(const drmModeConnector *c, char *out, size_t size) {
    const char *type = drmModeGetConnectorTypeName(c->connector_type);
    snprintf(out, size, "%s-%u", type ? type : "unknown", c->connector_type_id);
}

// Its preferred mode (else the first).
static int preferred(const drmModeConnector *c) {
    for (int m = 0; m < c->count_modes; m++)
        if (c->modes[m].type & DRM_MODE_TYPE_PREFERRED) return m;
    return 0;
}

// What --verbose and an unknown output's error list: "Virtual-1 connected 720x1280".
static void saw(ovs_drm *d, const char *name, const drmModeConnector *c) {
    size_t used = strlen(d->info.seen);
    if (used + 1 >= sizeof d->info.seen) return;
    const char *sep = used ? ", " : "";
    if (c->connection == DRM_MODE_CONNECTED && c->count_modes > 0) {
        const drmModeModeInfo *m = &c->modes[preferred(c)];
        snprintf(d->info.seen + used, sizeof d->info.seen - used, "%s%s connected %ux%u", sep, name, m->hdisplay, m->vdisplay);
    } else {
        snprintf(d->info.seen + used, sizeof d->info.seen - used, "%s%s %s", sep, name,
                 c->connection == DRM_MODE_CONNECTED ? "connected without modes" : "not connected");
    }
}

// The CRTC the connector is on now (fbcon's), else the first one an encoder offers; 0: none.
static uint32_t crtc_for(ovs_drm *d, drmModeRes *res, const drmModeConnector *c) {
    uint32_t crtc = 0;
    if (c->encoder_id) {
        drmModeEncoder *e = drmModeGetEncoder(d->fd, c->encoder_id);
        if (e) { crtc = e->crtc_id; drmModeFreeEncoder(e); }
    }
    for (int e = 0; !crtc && e < c->count_encoders; e++) {
        drmModeEncoder *enc = drmModeGetEncoder(d->fd, c->encoders[e]);
        if (!enc) continue;
        for (int k = 0; k < res->count_crtcs; k++) {
            if (enc->possible_crtcs & (1u << k)) { crtc = res->crtcs[k]; break; }
        }
        drmModeFreeEncoder(enc);
    }
    return crtc;
}

static void take(ovs_drm *d, drmModeRes *res, const drmModeConnector *c, uint32_t crtc, const char *name) {
    d->connector_id = c->connector_id;
    d->crtc_id = crtc;
    for (int k = 0; k < res->count_crtcs; k++) if (res->crtcs[k] == crtc) d->crtc_index = k;
    d->mode = c->modes[preferred(c)];
    d->info.width = d->mode.hdisplay;
    d->info.height = d->mode.vdisplay;
    // Millihertz from the mode's timings: "60" is often 59.94.
    if (d->mode.htotal && d->mode.vtotal) {
        double hz = (double)d->mode.clock * 1000.0 / ((double)d->mode.htotal * d->mode.vtotal);
        if (d->mode.flags & DRM_MODE_FLAG_INTERLACE) hz *= 2;
        if (d->mode.vscan > 1) hz /= d->mode.vscan;
        d->info.refresh_mhz = (int)(hz * 1000 + 0.5);
    }
    if (d->info.refresh_mhz <= 0) d->info.refresh_mhz = (int)d->mode.vrefresh * 1000;
    d->info.mm_width = (int)c->mmWidth;
    d->info.mm_height = (int)c->mmHeight;
    snprintf(d->info.connector, sizeof d->info.connector, "%s", name);
}

// The connector named `output` (any case; NULL: the first connected one with a mode) and
// a CRTC that can drive it; every connector is listed in `info.seen` on the way.
static int pick(ovs_drm *d, drmModeRes *res, const char *output) {
    int found = 0;
    for (int i = 0; i < res->count_connectors; i++) {
        drmModeConnector *c = drmModeGetConnector(d->fd, res->connectors[i]);
        if (!c) continue;
        char name[32];
        connector_name(c, name, sizeof name);
        saw(d, name, c);
        uint32_t crtc = 0;
        if (!found && c->connection == DRM_MODE_CONNECTED && c->count_modes > 0 && (!output || strcasecmp(name, output) == 0)
            && (crtc = crtc_for(d, res, c)) != 0) {
            take(d, res, c, crtc, name);
            found = 1;
        }
        drmModeFreeConnector(c);
    }
    return found;
}

static uint32_t property(int fd, uint32_t object, uint32_t type, const char *name, uint64_t *value) {
    drmModeObjectProperties *props = drmModeObjectGetProperties(fd, object, type);
    if (!props) return 0;
    uint32_t id = 0;
    for (uint32_t i = 0; i < props->count_props && !id; i++) {
        drmModePropertyRes *p = drmModeGetProperty(fd, props->props[i]);
        if (!p) continue;
        if (strcmp(p->name, name) == 0) {
            id = p->prop_id;
            if (value) *value = props->prop_values[i];
        }
        drmModeFreeProperty(p);
    }
    drmModeFreeObjectProperties(props);
    return id;
}

// Drivers that upload per buffer applied FB_DAMAGE_CLIPS to the new buffer even when the
// flip changed buffers, showing stale rows, until the kernel told them to ignore the
// clips then ("drm/virtio: Disable damage clipping if FB changed since last page-flip",
// Linux 6.8, backported to 6.7.3 and 6.6.15; vmwgfx's twin, 6.8). Every other driver
// gets them: those that copy to a shadow (simpledrm, udl, gud, ...) then copy only that.
int ovs_drm_damage_clips_trusted(const char *driver, const char *release) {
    int per_buffer = strcmp(driver, "virtio_gpu") == 0, vmw = strcmp(driver, "vmwgfx") == 0;
    if (!per_buffer && !vmw) return 1;
    int major = 0, minor = 0, patch = 0;
    if (sscanf(release, "%d.%d.%d", &major, &minor, &patch) < 2) return 0;
    if (major != 6) return major > 6;
    if (minor >= 8) return 1;
    if (vmw) return 0;
    return (minor == 7 && patch >= 3) || (minor == 6 && patch >= 15);
}

// Atomic commits for the flips, where the driver has them: they can move the plane's
// source rectangle, which a legacy page flip cannot.
static void atomic(ovs_drm *d) {
    if (drmSetClientCap(d->fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1) != 0) return;
    if (drmSetClientCap(d->fd, DRM_CLIENT_CAP_ATOMIC, 1) != 0) return;
    drmModePlaneRes *planes = drmModeGetPlaneResources(d->fd);
    if (!planes) return;
    for (uint32_t i = 0; i < planes->count_planes && !d->plane_id; i++) {
        drmModePlane *p = drmModeGetPlane(d->fd, planes->planes[i]);
        if (!p) continue;
        uint64_t type = 0;
        if ((p->possible_crtcs & (1u << d->crtc_index))
            && property(d->fd, p->plane_id, DRM_MODE_OBJECT_PLANE, "type", &type) && type == DRM_PLANE_TYPE_PRIMARY) {
            d->plane_id = p->plane_id;
        }
        drmModeFreePlane(p);
    }
    drmModeFreePlaneResources(planes);
    if (!d->plane_id) return;
    uint32_t o = d->plane_id, t = DRM_MODE_OBJECT_PLANE;
    d->p_fb = property(d->fd, o, t, "FB_ID", NULL);
    d->p_crtc = property(d->fd, o, t, "CRTC_ID", NULL);
    d->p_src_x = property(d->fd, o, t, "SRC_X", NULL);
    d->p_src_y = property(d->fd, o, t, "SRC_Y", NULL);
    d->p_src_w = property(d->fd, o, t, "SRC_W", NULL);
    d->p_src_h = property(d->fd, o, t, "SRC_H", NULL);
    d->p_crtc_x = property(d->fd, o, t, "CRTC_X", NULL);
    d->p_crtc_y = property(d->fd, o, t, "CRTC_Y", NULL);
    d->p_crtc_w = property(d->fd, o, t, "CRTC_W", NULL);
    d->p_crtc_h = property(d->fd, o, t, "CRTC_H", NULL);
    if (!(d->p_fb && d->p_crtc && d->p_src_x && d->p_src_y && d->p_src_w && d->p_src_h && d->p_crtc_x && d->p_crtc_y
          && d->p_crtc_w && d->p_crtc_h)) {
        d->plane_id = 0;
        drmSetClientCap(d->fd, DRM_CLIENT_CAP_ATOMIC, 0);
        return;
    }
    d->info.atomic = 1;
    struct utsname kernel;
    const char *release = uname(&kernel) == 0 ? kernel.release : "";
    if (ovs_drm_damage_clips_trusted(d->info.driver, release))
        d->p_damage = property(d->fd, o, t, "FB_DAMAGE_CLIPS", NULL);
    d->info.damage_clips = d->p_damage != 0;
    // virtio-gpu shows a dumb buffer's host resource from the plane's source rectangle and
    // ignores a framebuffer's offset (its scanout and transfers take src_x/src_y); drivers
    // that copy through the framebuffer's mapping (simpledrm, bochs, ...) honour the
    // offset and not always the source rectangle.
    d->info.source_offset = strcmp(d->info.driver, "virtio_gpu") == 0;
}

static ovs_drm *open_one(const char *path, const char *output, char *why, int why_size) {
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        fail(why, why_size, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    drmModeRes *res = drmModeGetResources(fd);
    if (!res) {
        fail(why, why_size, "%s is not a DRM display device (%s)", path, strerror(errno));
        close(fd);
        return NULL;
    }
    ovs_drm *d = calloc(1, sizeof *d);
    if (!d) { drmModeFreeResources(res); close(fd); fail(why, why_size, "out of memory%s%s", "", ""); return NULL; }
    d->fd = fd;
    d->current = d->shown = d->pending = -1;
    d->modeset = 1;
    d->active = 1;
    snprintf(d->info.path, sizeof d->info.path, "%s", path);
    drmVersion *v = drmGetVersion(fd);
    if (v) { snprintf(d->info.driver, sizeof d->info.driver, "%s", v->name); drmFreeVersion(v); }
    int found = pick(d, res, output);
    drmModeFreeResources(res);
    uint64_t dumb = 0;
    if (!found && output) {
        char what[400];
        snprintf(what, sizeof what, "%s (%s) has no connected output named %s; its outputs: %s", path, d->info.driver, output,
                 d->info.seen[0] ? d->info.seen : "none");
        fail(why, why_size, "%s%s", what, "");
    } else if (!found) {
        fail(why, why_size, "%s has no connected display (%s)", path, d->info.driver);
    } else if (drmGetCap(fd, DRM_CAP_DUMB_BUFFER, &dumb) != 0 || !dumb) {
        fail(why, why_size, "%s (%s) offers no dumb buffers", path, d->info.driver);
        found = 0;
    }
    if (found && !drmIsMaster(fd)) {
        // Another client holds the screen (a compositor, an X server, a second kiosk):
        // every mode set and flip of ours would be refused (EACCES) and nothing shown.
        fail(why, why_size, "another program is the DRM master of %s (%s) and holds its screen; stop it (a compositor, "
             "an X server, another kiosk) or run this one under it", path, d->info.driver);
        found = 0;
    }
    if (!found) { close(fd); free(d); return NULL; }
    d->saved = drmModeGetCrtc(fd, d->crtc_id);
    atomic(d);
    return d;
}

ovs_drm *ovs_drm_open(const char *path, const char *output, char *why, int why_size) {
    if (path) return open_one(path, output, why, why_size);
    // The first card with a connected display, as the seat's is on a kiosk with one.
    char first[600] = "";
    for (int i = 0; i < 16; i++) {
        char name[32];
        snprintf(name, sizeof name, "/dev/dri/card%d", i);
        if (access(name, F_OK) != 0) continue;
        char reason[sizeof first] = "";
        ovs_drm *d = open_one(name, output, reason, sizeof reason);
        if (d) return d;
        // An output asked for by name may be on any card: every card's outputs are said.
        size_t used = strlen(first);
        if (!used || output) snprintf(first + used, sizeof first - used, "%s%s", used ? "; " : "", reason);
    }
    fail(why, why_size, "%s%s", first[0] ? first : "no DRM device in /dev/dri (no display driver loaded?)", "");
    return NULL;
}

void ovs_drm_get_info(const ovs_drm *d, ovs_drm_info *info) { *info = d->info; }

// MARK: Buffers

static void drop_fb(ovs_drm *d, Buffer *b) {
    if (b->fb) drmModeRmFB(d->fd, b->fb);
    b->fb = 0;
}

static void drop(ovs_drm *d, Buffer *b) {
    drop_fb(d, b);
    if (b->pixels) munmap(b->pixels, b->size);
    if (b->handle) {
        struct drm_mode_destroy_dumb destroy = { .handle = b->handle };
        drmIoctl(d->fd, DRM_IOCTL_MODE_DESTROY_DUMB, &destroy);
    }
    memset(b, 0, sizeof *b);
}

// A framebuffer showing the buffer from pixel (`x`, `y`) on (framebuffer offsets: a ring
// row, or a turned screen's ring column, 4 bytes a pixel on), or all of it (source
// rectangle): remade only while the buffer is off the screen.
static int framebuffer(ovs_drm *d, Buffer *b, int x, int y) {
    uint32_t fb_offset = d->info.source_offset ? 0 : (uint32_t)y * b->pitch + (uint32_t)x * 4;
    if (b->fb && b->fb_offset == fb_offset) return 1;
    drop_fb(d, b);
    uint32_t handles[4] = { b->handle }, pitches[4] = { b->pitch }, offsets[4] = { fb_offset };
    int width = d->info.source_offset ? b->columns : b->width, height = d->info.source_offset ? b->rows : b->height;
    if (drmModeAddFB2(d->fd, (uint32_t)width, (uint32_t)height, DRM_FORMAT_XRGB8888, handles, pitches, offsets, &b->fb, 0) != 0) {
        b->fb = 0;
        if (lost_errno(errno)) d->broken = 1;
        return 0;
    }
    b->fb_offset = fb_offset;
    return 1;
}

static int make(ovs_drm *d, Buffer *b, int width, int height, int columns, int rows) {
    struct drm_mode_create_dumb create = { .width = (uint32_t)columns, .height = (uint32_t)rows, .bpp = 32 };
    if (drmIoctl(d->fd, DRM_IOCTL_MODE_CREATE_DUMB, &create) != 0) {
        if (lost_errno(errno)) d->broken = 1;
        return 0;
    }
    *b = (Buffer){ .handle = create.handle, .pitch = create.pitch, .size = create.size, .width = width, .height = height,
                   .columns = columns, .rows = rows, .fresh = 1 };
    struct drm_mode_map_dumb map = { .handle = create.handle };
    if (drmIoctl(d->fd, DRM_IOCTL_MODE_MAP_DUMB, &map) != 0) { drop(d, b); return 0; }
    void *pixels = mmap(NULL, b->size, PROT_READ | PROT_WRITE, MAP_SHARED, d->fd, (off_t)map.offset);
    if (pixels == MAP_FAILED) { drop(d, b); return 0; }
    b->pixels = pixels;
    return 1;
}

static void flip_done(int fd, unsigned int sequence, unsigned int sec, unsigned int usec, void *data) {
    (void)fd; (void)sequence;
    ovs_drm *d = data;
    if (d->pending < 0) return;
    // The vblank the flip happened at: when the frame left for the glass.
    d->shown_seq = d->pending_seq;
    d->shown_usec = (long long)sec * 1000000 + usec;
    // Told in order; past 8 untold (nobody asks), the oldest goes.
    if (d->heard_count == 8) { d->heard_first = (d->heard_first + 1) % 8; d->heard_count--; }
    int k = (d->heard_first + d->heard_count++) % 8;
    d->heard_seq[k] = d->shown_seq;
    d->heard_usec[k] = d->shown_usec;
    d->shown = d->pending;
    d->pending = -1;
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
    d->probed_ms = now_ms();
}

uint32_t *ovs_drm_acquire(ovs_drm *d, int width, int height, int columns, int rows, int x, int y, int most,
                          int timeout_ms, int *stride, int *index, int *fresh) {
    d->current = -1;
    if (d->broken || !d->active) return NULL;
    if (width <= 0 || height <= 0 || x < 0 || y < 0 || columns < width + x || rows < height + y) return NULL;
    if (width > d->info.width || height > d->info.height) return NULL;
    for (int i = 0; i < d->count; i++) {
        Buffer *b = &d->buffers[i];
        if (b->width != width || b->height != height || b->columns != columns || b->rows != rows) {
            // Another size: all go, the shown one too (the mode is set again with the next).
            for (int j = 0; j < d->count; j++) drop(d, &d->buffers[j]);
            d->count = 0;
            d->shown = d->pending = -1;
            d->modeset = 1;
            break;
        }
    }
    double deadline = now_ms() + timeout_ms;
    for (;;) {
        if (pump(d, 0) < 0) return NULL;
        for (int i = 0; i < d->count; i++) {
            if (i == d->shown || i == d->pending) continue;
            d->current = i;
            break;
        }
        if (d->current < 0 && d->count < most && d->count < ovs_drm_most) {
            if (!make(d, &d->buffers[d->count], width, height, columns, rows)) return NULL;
            d->current = d->count++;
        }
        if (d->current >= 0) break;
        double left = deadline - now_ms();
        if (left <= 0) { probe(d); return NULL; }
        if (pump(d, (int)left + 1) < 0) return NULL;
    }
    Buffer *b = &d->buffers[d->current];
    if (!framebuffer(d, b, x, y)) { d->current = -1; return NULL; }
    b->x = x;
    b->y = y;
    d->damaged = 0;
    *stride = (int)(b->pitch / 4);
    *index = d->current;
    *fresh = b->fresh;
    b->fresh = 0;
    return b->pixels;
}

void ovs_drm_damage(ovs_drm *d, int x, int y, int width, int height) {
    if (!d->info.damage_clips || d->current < 0 || width <= 0 || height <= 0) return;
    // Framebuffer coordinates: the window's pixels from the plane's source pixel on.
    const Buffer *shown = &d->buffers[d->current];
    int left = x + (d->info.source_offset ? shown->x : 0), top = y + (d->info.source_offset ? shown->y : 0);
    struct drm_mode_rect r = { left, top, left + width, top + height };
    if (d->damaged < 8) { d->damage[d->damaged++] = r; return; }
    struct drm_mode_rect *b = &d->damage[7];
    if (r.x1 < b->x1) b->x1 = r.x1;
    if (r.y1 < b->y1) b->y1 = r.y1;
    if (r.x2 > b->x2) b->x2 = r.x2;
    if (r.y2 > b->y2) b->y2 = r.y2;
}

static int commit_atomic(ovs_drm *d, Buffer *b) {
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
    d->commit_seq = 0;
    if (d->current < 0) return 0;
    Buffer *b = &d->buffers[d->current];
    d->current = -1;
    // Not ours now (another VT): nothing is shown; the buffer is written again in full
    // when the VT comes back.
    if (!d->active) return 0;
    int index = (int)(b - d->buffers);
    int r;
    if (d->modeset) {
        // Blocking, once: the mode, the connector and the first frame.
        int x = d->info.source_offset ? b->x : 0, y = d->info.source_offset ? b->y : 0;
        r = drmModeSetCrtc(d->fd, d->crtc_id, b->fb, (uint32_t)x, (uint32_t)y, &d->connector_id, 1, &d->mode);
        if (r == 0) {
            d->modeset = 0;
            d->shown = index;
            d->pending = -1;
            d->flips++;
            return 0;
        }
    } else {
        r = d->info.atomic ? commit_atomic(d, b) : drmModePageFlip(d->fd, d->crtc_id, b->fb, DRM_MODE_PAGE_FLIP_EVENT, d);
        if (r != 0 && errno == EBUSY) {
            // The flip before is still pending (a caller that did not wait): wait, once.
            ovs_drm_wait_frame(d, 100);
            r = d->info.atomic ? commit_atomic(d, b) : drmModePageFlip(d->fd, d->crtc_id, b->fb, DRM_MODE_PAGE_FLIP_EVENT, d);
        }
        if (r == 0) {
            d->pending = index;
            d->pending_seq = d->commit_seq = ++d->flip_seq;
            return 0;
        }
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
        b->fresh = 1;
        return 0;
    }
    d->broken = 1;
    return -1;
}

int ovs_drm_wait_frame(ovs_drm *d, int timeout_ms) {
    double deadline = now_ms() + timeout_ms;
    for (;;) {
        if (pump(d, 0) < 0) return -1;
        if (d->pending < 0) return 1;
        double left = deadline - now_ms();
        if (left <= 0) {
            probe(d);
            return d->broken ? -1 : 0;
        }
        if (pump(d, (int)left + 1) < 0) return -1;
    }
}

int ovs_drm_broken(ovs_drm *d) {
    // A run at rest makes no ioctl that would fail: asked at most twice a second.
    if (!d->broken && now_ms() - d->probed_ms >= 500) probe(d);
    return d->broken;
}
int ovs_drm_active(const ovs_drm *d) { return d->active; }
int ovs_drm_refused(const ovs_drm *d) { return d->refused; }
int ovs_drm_buffers(const ovs_drm *d) { return d->count; }
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
    d->pending = -1;
    d->shown = -1;
    // Whatever showed meanwhile may have drawn over nothing of ours, but the frame is
    // written whole again: the presenter's idea of each buffer starts over.
    for (int i = 0; i < d->count; i++) d->buffers[i].fresh = 1;
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
    for (int i = 0; i < d->count; i++) drop(d, &d->buffers[i]);
    if (d->saved) drmModeFreeCrtc(d->saved);
    close(d->fd);
    free(d);
}
