// The DRM device opened for dumb.c's buffers: the connector named (or the first
// connected), its preferred mode, a CRTC that drives it (its state kept to give back),
// and the primary plane's atomic properties where the driver has them.
#define _GNU_SOURCE
#include "device.h"
#include "failure.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

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
    // qxl's plane update copies the framebuffer's width and height from the buffer's
    // first byte to the host, the offset and the source rectangle ignored: a ring shown
    // from another row came out shifted by it (QEMU's qxl-vga, Debian 12's 6.1).
    d->info.from_start = strcmp(d->info.driver, "qxl") == 0;
}

static ovs_drm *open_one(const char *path, const char *output, char *why, int why_size) {
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        ovs_fail(why, why_size, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    drmModeRes *res = drmModeGetResources(fd);
    if (!res) {
        ovs_fail(why, why_size, "%s is not a DRM display device (%s)", path, strerror(errno));
        close(fd);
        return NULL;
    }
    ovs_drm *d = calloc(1, sizeof *d);
    if (!d) { drmModeFreeResources(res); close(fd); ovs_fail(why, why_size, "out of memory"); return NULL; }
    d->fd = fd;
    ovs_chain_init(&d->chain, &ovs_drm_chain_ops, d);
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
        ovs_fail(why, why_size, "%s", what);
    } else if (!found) {
        ovs_fail(why, why_size, "%s has no connected display (%s)", path, d->info.driver);
    } else if (drmGetCap(fd, DRM_CAP_DUMB_BUFFER, &dumb) != 0 || !dumb) {
        ovs_fail(why, why_size, "%s (%s) offers no dumb buffers", path, d->info.driver);
        found = 0;
    }
    if (found && !drmIsMaster(fd)) {
        // Another client holds the screen (a compositor, an X server, a second kiosk):
        // every mode set and flip of ours would be refused (EACCES) and nothing shown.
        ovs_fail(why, why_size, "another program is the DRM master of %s (%s) and holds its screen; stop it (a compositor, "
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
    ovs_fail(why, why_size, "%s", first[0] ? first : "no DRM device in /dev/dri (no display driver loaded?)");
    return NULL;
}

void ovs_drm_get_info(const ovs_drm *d, ovs_drm_info *info) { *info = d->info; }
