#include "xshm.h"
#include "failure.h"
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/XShm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>

// libX11 and libXext are linked: Debian's libSDL2 links both, so they are loaded in every
// run whatever the display, and these calls reach the copies SDL's window uses.
struct ovs_shm_image {
    Display *display;
    Window window;
    GC gc;
    XImage *image;
    XShmSegmentInfo segment;
    int width, height;
};

// Set while the server answers the attach: a server that cannot map our segment (it runs
// elsewhere, or in another IPC namespace) answers with an error, which Xlib's default
// handler would make fatal.
static int attach_failed;
static int note_attach_error(Display *display, XErrorEvent *event) {
    (void)display; (void)event;
    attach_failed = 1;
    return 0;
}

// What was made so far goes, and the reason is said (failure.h).
static ovs_shm_image *undo(ovs_shm_image *made, char *why, int why_size, const char *reason) {
    ovs_fail(why, why_size, "%s", reason);
    ovs_shm_image_destroy(made);
    return NULL;
}

ovs_shm_image *ovs_shm_image_create(void *raw_display, unsigned long window, int width, int height,
                                    char *why, int why_size) {
    Display *display = raw_display;
    if (!display || !window || width <= 0 || height <= 0) return undo(NULL, why, why_size, "no X11 window");
    // Shared memory works only with a server on this machine, as SDL's own check has it.
    const char *name = XDisplayString(display);
    if (!name || !(name[0] == ':' || strncmp(name, "unix:", 5) == 0))
        return undo(NULL, why, why_size, "the X server is not local");
    if (!XShmQueryExtension(display)) return undo(NULL, why, why_size, "the X server has no MIT-SHM");
    XWindowAttributes attributes;
    if (!XGetWindowAttributes(display, window, &attributes)) return undo(NULL, why, why_size, "the window's visual is unknown");

    ovs_shm_image *made = calloc(1, sizeof *made);
    if (!made) return undo(NULL, why, why_size, "out of memory");
    made->display = display;
    made->window = window;
    made->width = width;
    made->height = height;
    made->segment.shmid = -1;
    made->segment.shmaddr = (char *)-1;
    made->image = XShmCreateImage(display, attributes.visual, (unsigned)attributes.depth, ZPixmap, NULL, &made->segment,
                               (unsigned)width, (unsigned)height);
    if (!made->image) return undo(made, why, why_size, "XShmCreateImage failed");
    if (made->image->bits_per_pixel != 32 || made->image->bytes_per_line % 4 != 0)
        return undo(made, why, why_size, "the window's visual is not 32 bits a pixel");
    made->segment.shmid = shmget(IPC_PRIVATE, (size_t)made->image->bytes_per_line * (size_t)height, IPC_CREAT | 0600);
    if (made->segment.shmid < 0) return undo(made, why, why_size, "no shared memory segment");
    made->segment.shmaddr = made->image->data = shmat(made->segment.shmid, NULL, 0);
    if (made->segment.shmaddr == (char *)-1) {
        made->image->data = NULL;
        return undo(made, why, why_size, "shared memory could not be mapped");
    }
    made->segment.readOnly = False;
    attach_failed = 0;
    XErrorHandler previous = XSetErrorHandler(note_attach_error);
    Bool attached = XShmAttach(display, &made->segment);
    XSync(display, False);
    XSetErrorHandler(previous);
    // Removed now, the segment goes with the last process that maps it: it cannot outlive us.
    shmctl(made->segment.shmid, IPC_RMID, NULL);
    if (!attached || attach_failed) {
        made->segment.shmid = -1;      // not attached: nothing to detach
        return undo(made, why, why_size, "the X server could not map shared memory");
    }
    made->gc = XCreateGC(display, window, 0, NULL);
    if (!made->gc) return undo(made, why, why_size, "XCreateGC failed");
    return made;
}

uint32_t *ovs_shm_image_pixels(const ovs_shm_image *image) { return (uint32_t *)image->image->data; }

int ovs_shm_image_stride(const ovs_shm_image *image) { return image->image->bytes_per_line / 4; }

void ovs_shm_image_masks(const ovs_shm_image *image, uint32_t *red, uint32_t *green, uint32_t *blue) {
    *red = (uint32_t)image->image->red_mask;
    *green = (uint32_t)image->image->green_mask;
    *blue = (uint32_t)image->image->blue_mask;
}

void ovs_shm_image_put(ovs_shm_image *image, int from, int to, int rows) {
    if (rows <= 0) return;
    // No completion event: `sync` is how we know the server has read the pixels.
    XShmPutImage(image->display, image->window, image->gc, image->image, 0, from, 0, to,
               (unsigned)image->width, (unsigned)rows, False);
}

void ovs_shm_image_sync(ovs_shm_image *image) { XSync(image->display, False); }

void ovs_shm_image_destroy(ovs_shm_image *image) {
    if (!image) return;
    if (image->gc) XFreeGC(image->display, image->gc);
    if (image->segment.shmid >= 0 && image->segment.shmaddr != (char *)-1) {
        XShmDetach(image->display, &image->segment);
        XSync(image->display, False);
    }
    if (image->segment.shmaddr != (char *)-1) shmdt(image->segment.shmaddr);
    // XShmCreateImage's image frees only itself (its data is the segment, unmapped above).
    if (image->image) {
        image->image->data = NULL;
        XDestroyImage(image->image);
    }
    free(image);
}

int ovs_x11_connection_number(void *display) { return ConnectionNumber((Display *)display); }

int ovs_x11_root_size(void *display, int *width, int *height) {
    Window root;
    int x, y;
    unsigned w = 0, h = 0, border, depth;
    if (!XGetGeometry(display, DefaultRootWindow((Display *)display), &root, &x, &y, &w, &h, &border, &depth)) return 0;
    *width = (int)w;
    *height = (int)h;
    return w > 0 && h > 0;
}

unsigned long ovs_x11_watch_root_size(void *display) {
    Window root = DefaultRootWindow((Display *)display);
    XWindowAttributes attributes;
    // Added to what this connection (SDL's) already asked of the root window, not instead.
    if (!XGetWindowAttributes(display, root, &attributes)) return 0;
    XSelectInput(display, root, attributes.your_event_mask | StructureNotifyMask);
    XFlush(display);
    return root;
}

int ovs_x11_events_already_queued(void *display) { return XEventsQueued(display, QueuedAlready); }

void ovs_x11_on_connection_lost(int (*handler)(void *display)) { XSetIOErrorHandler((XIOErrorHandler)handler); }

double ovs_x11_screen_dpi(void) {
    Display *display = XOpenDisplay(NULL);
    if (!display) return 0;
    int screen = DefaultScreen(display);
    int pixels = DisplayHeight(display, screen), mm = DisplayHeightMM(display, screen);
    XCloseDisplay(display);
    return pixels > 0 && mm > 0 ? pixels * 25.4 / mm : 0;
}
