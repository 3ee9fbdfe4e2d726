#define _GNU_SOURCE
#include "fbdev.h"
#include "failure.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

enum { most_damage = 8 };

typedef struct { int x, y, w, h; } Rect;

struct ovs_fb {
    int fd;
    ovs_fb_ioctl_fn ioctl_fn;
    void *context;
    ovs_fb_info info;
    struct fb_var_screeninfo var;   // as found: the pan given back at the end
    uint8_t *screen;                // the mapped memory
    size_t screen_size;
    uint32_t *shadow;               // where the frame is written when the screen's memory is not
    size_t shadow_pixels;
    int width, height, rows;        // the buffer's shape
    int panned;                     // the buffer is the screen's memory (commits pan)
    int direct;                     // the buffer is the screen's memory, never panned: as tall
                                    // as the screen, it is written where it is shown
    int offset;                     // the acquired frame's first row
    int shown_offset;               // the row the screen shows from (panned)
    int acquired;
    int fresh;                      // the next buffer handed out is new: written whole
    int whole;                      // the next commit copies the whole window
    int active;                     // the VT is ours
    Rect damage[most_damage];
    int damaged;
    long commits, pans, copied;
};

static int kernel_ioctl(void *context, int fd, unsigned long request, void *argument) {
    (void)context;
    return ioctl(fd, request, argument);
}

// "XRGB8888", or what the mode is instead, for the line that refuses it.
static int is_xrgb8888(const struct fb_var_screeninfo *v, const struct fb_fix_screeninfo *x) {
    return x->type == FB_TYPE_PACKED_PIXELS && x->visual == FB_VISUAL_TRUECOLOR && v->bits_per_pixel == 32
        && v->red.offset == 16 && v->red.length == 8 && v->green.offset == 8 && v->green.length == 8
        && v->blue.offset == 0 && v->blue.length == 8 && !v->grayscale && v->nonstd == 0;
}

static void describe_format(const struct fb_var_screeninfo *v, const struct fb_fix_screeninfo *x, char *out, size_t size) {
    if (x->type != FB_TYPE_PACKED_PIXELS || x->visual != FB_VISUAL_TRUECOLOR) {
        snprintf(out, size, "%u bpp, not packed true colour (type %u, visual %u)", v->bits_per_pixel, x->type, x->visual);
        return;
    }
    snprintf(out, size, "%u bpp with red at bit %u (%u bits), green at %u (%u), blue at %u (%u)", v->bits_per_pixel,
             v->red.offset, v->red.length, v->green.offset, v->green.length, v->blue.offset, v->blue.length);
}

ovs_fb *ovs_fb_open(const char *path, ovs_fb_ioctl_fn ioctl_fn, void *context, char *why, int why_size) {
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        ovs_fail(why, why_size, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    if (!ioctl_fn) ioctl_fn = kernel_ioctl;
    struct fb_var_screeninfo var;
    struct fb_fix_screeninfo fix;
    memset(&var, 0, sizeof var);
    memset(&fix, 0, sizeof fix);
    if (ioctl_fn(context, fd, FBIOGET_VSCREENINFO, &var) != 0 || ioctl_fn(context, fd, FBIOGET_FSCREENINFO, &fix) != 0) {
        ovs_fail(why, why_size, "%s is not a framebuffer device (%s)", path, strerror(errno));
        close(fd);
        return NULL;
    }
    char id[sizeof fix.id + 1];
    memcpy(id, fix.id, sizeof fix.id);
    id[sizeof fix.id] = 0;
    if (!is_xrgb8888(&var, &fix)) {
        char format[160];
        describe_format(&var, &fix, format, sizeof format);
        ovs_fail(why, why_size, "%s (%s) is %s; only 32 bpp XRGB8888 is drawn: set a 32-bit mode (video=efifb or vga= on the kernel line, or fbset -depth 32)",
             path, id, format);
        close(fd);
        return NULL;
    }
    size_t row_bytes = fix.line_length, visible = (size_t)var.xres * 4;
    if (var.xres == 0 || var.yres == 0 || row_bytes < visible || var.yres_virtual < var.yres
        || (size_t)fix.smem_len < row_bytes * var.yres) {
        ovs_fail(why, why_size, "%s (%s) reports a mode its memory cannot hold (%ux%u, %u bytes a row, %u bytes)", path, id,
             var.xres, var.yres, fix.line_length, fix.smem_len);
        close(fd);
        return NULL;
    }
    // Only the rows the memory holds whole can be panned to.
    size_t rows = fix.smem_len / row_bytes;
    if (rows > var.yres_virtual) rows = var.yres_virtual;
    void *screen = mmap(NULL, fix.smem_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (screen == MAP_FAILED) {
        ovs_fail(why, why_size, "cannot map %s (%s): %s", path, id, strerror(errno));
        close(fd);
        return NULL;
    }
    ovs_fb *f = calloc(1, sizeof *f);
    if (!f) { munmap(screen, fix.smem_len); close(fd); ovs_fail(why, why_size, "out of memory"); return NULL; }
    *f = (ovs_fb){ .fd = fd, .ioctl_fn = ioctl_fn, .context = context, .var = var, .screen = screen,
                   .screen_size = fix.smem_len, .fresh = 1, .whole = 1, .active = 1, .shown_offset = (int)var.yoffset };
    f->info.width = (int)var.xres;
    f->info.height = (int)var.yres;
    f->info.virtual_height = (int)rows;
    f->info.stride = (int)(row_bytes / 4);
    // A pan the driver can make one row at a time (efifb has no pan: ypanstep 0).
    f->info.can_pan = fix.ypanstep == 1 && rows > var.yres && var.xoffset == 0;
    if ((int)var.width > 0 && (int)var.height > 0 && var.width < 10000 && var.height < 10000) {
        f->info.mm_width = (int)var.width;
        f->info.mm_height = (int)var.height;
    }
    snprintf(f->info.path, sizeof f->info.path, "%s", path);
    snprintf(f->info.id, sizeof f->info.id, "%s", id);
    return f;
}

void ovs_fb_get_info(const ovs_fb *f, ovs_fb_info *info) { *info = f->info; }

uint32_t *ovs_fb_acquire(ovs_fb *f, int width, int height, int rows, int offset, int *stride, int *fresh) {
    f->acquired = 0;
    if (!f->active) return NULL;
    if (width <= 0 || height <= 0 || offset < 0 || rows < height + offset) return NULL;
    if (width > f->info.width || height > f->info.height) return NULL;
    if (width != f->width || height != f->height || rows != f->rows) {
        f->width = width;
        f->height = height;
        f->rows = rows;
        f->panned = f->info.can_pan && rows <= f->info.virtual_height;
        // A buffer no taller than the screen needs no pan: the presenter writes only the
        // pixels that changed (a ring pinned to the screen's top), so they go straight to
        // the screen; a shadow would have them written twice, and copied as a box.
        f->direct = !f->panned && rows == height;
        f->fresh = 1;
        f->whole = 1;
        if (!f->panned && !f->direct && f->shadow_pixels < (size_t)width * (size_t)rows) {
            free(f->shadow);
            f->shadow_pixels = 0;
            f->shadow = malloc((size_t)width * (size_t)rows * 4);
            if (!f->shadow) { f->rows = 0; return NULL; }
            f->shadow_pixels = (size_t)width * (size_t)rows;
        }
    }
    f->offset = offset;
    f->acquired = 1;
    f->damaged = 0;
    *fresh = f->fresh;
    f->fresh = 0;
    if (f->panned || f->direct) {
        *stride = f->info.stride;
        return (uint32_t *)f->screen;
    }
    *stride = width;
    return f->shadow;
}

void ovs_fb_damage(ovs_fb *f, int x, int y, int width, int height) {
    if (!f->acquired || width <= 0 || height <= 0) return;
    Rect r = { x, y, width, height };
    if (f->damaged < most_damage) { f->damage[f->damaged++] = r; return; }
    // Past a handful: their bounding box (one copy of a few more pixels costs less).
    Rect *b = &f->damage[most_damage - 1];
    int right = b->x + b->w > r.x + r.w ? b->x + b->w : r.x + r.w;
    int bottom = b->y + b->h > r.y + r.h ? b->y + b->h : r.y + r.h;
    b->x = b->x < r.x ? b->x : r.x;
    b->y = b->y < r.y ? b->y : r.y;
    b->w = right - b->x;
    b->h = bottom - b->y;
}

// Window rows of `r` from the shadow (from the frame's offset on) to the screen.
static void copy(ovs_fb *f, Rect r) {
    if (r.x < 0) { r.w += r.x; r.x = 0; }
    if (r.y < 0) { r.h += r.y; r.y = 0; }
    if (r.x + r.w > f->width) r.w = f->width - r.x;
    if (r.y + r.h > f->height) r.h = f->height - r.y;
    if (r.w <= 0 || r.h <= 0) return;
    for (int row = r.y; row < r.y + r.h; row++) {
        const uint32_t *from = f->shadow + (size_t)(f->offset + row) * (size_t)f->width + r.x;
        uint32_t *to = (uint32_t *)(f->screen + (size_t)row * (size_t)f->info.stride * 4) + r.x;
        memcpy(to, from, (size_t)r.w * 4);
    }
    f->copied += (long)r.w * r.h;
}

static int pan(ovs_fb *f, int offset) {
    struct fb_var_screeninfo v = f->var;
    v.xoffset = 0;
    v.yoffset = (uint32_t)offset;
    if (f->ioctl_fn(f->context, f->fd, FBIOPAN_DISPLAY, &v) != 0) return -1;
    f->shown_offset = offset;
    f->pans++;
    return 0;
}

int ovs_fb_commit(ovs_fb *f) {
    if (!f->acquired) return 0;
    f->acquired = 0;
    if (!f->active) return 0;
    if (f->panned) {
        if (f->offset != f->shown_offset && pan(f, f->offset) != 0) {
            // A driver that stopped panning: the rest of the run copies from a shadow.
            f->info.can_pan = 0;
            f->rows = 0;
            return errno == EINVAL || errno == EBUSY || errno == EINTR ? 0 : -1;
        }
    } else if (f->direct) {
        // Written where it is shown already.
    } else if (f->whole) {
        copy(f, (Rect){ 0, 0, f->width, f->height });
    } else {
        for (int i = 0; i < f->damaged; i++) copy(f, f->damage[i]);
    }
    f->whole = 0;
    f->damaged = 0;
    f->commits++;
    return 0;
}

void ovs_fb_release(ovs_fb *f) { f->active = 0; }

void ovs_fb_reacquire(ovs_fb *f) {
    f->active = 1;
    // Another VT's text or program drew over the screen: written whole again.
    f->fresh = 1;
    f->whole = 1;
    if (f->panned) f->shown_offset = -1;
}

int ovs_fb_active(const ovs_fb *f) { return f->active; }
long ovs_fb_commits(const ovs_fb *f) { return f->commits; }
long ovs_fb_pans(const ovs_fb *f) { return f->pans; }
long ovs_fb_copied(const ovs_fb *f) { return f->copied; }

void ovs_fb_destroy(ovs_fb *f) {
    if (!f) return;
    // The console's text shows from where it was panned before.
    if (f->active && f->shown_offset != (int)f->var.yoffset) {
        struct fb_var_screeninfo v = f->var;
        f->ioctl_fn(f->context, f->fd, FBIOPAN_DISPLAY, &v);
    }
    munmap(f->screen, f->screen_size);
    free(f->shadow);
    close(f->fd);
    free(f);
}
