#ifndef OVERSCROLL_XSHM_H
#define OVERSCROLL_XSHM_H
#include <stdint.h>

// An image in memory shared with the X server (MIT-SHM), put on a window from any of its
// rows: the list is kept there as a ring of pixel rows, so a scroll changes which row is
// put first instead of rewriting the rows. Xlib's names clash with Swift's, so its types
// stay in here. The few Xlib calls the Swift side makes on SDL's connection are here too
// (`ovs_x11_*`).
typedef struct ovs_shm_image ovs_shm_image;

// A `width` x `height` image of 32-bit pixels for `window` on `display` (Xlib's Display *
// and Window, from SDL), in the window's visual. NULL when it cannot be had: no MIT-SHM on
// the server, a server on another machine, no shared memory, a visual that is not 32 bits a
// pixel; then `why` holds the reason.
ovs_shm_image *ovs_shm_image_create(void *display, unsigned long window, int width, int height,
                                    char *why, int why_size);
uint32_t *ovs_shm_image_pixels(const ovs_shm_image *image);
// Pixels from one row of the image to the next.
int ovs_shm_image_stride(const ovs_shm_image *image);
// Where the image's pixels keep red, green and blue.
void ovs_shm_image_masks(const ovs_shm_image *image, uint32_t *red, uint32_t *green, uint32_t *blue);
// Queues putting the image's rows [from, from + rows), whole width, on the window's rows
// from `to` on. Nothing is sent yet.
void ovs_shm_image_put(ovs_shm_image *image, int from, int to, int rows);
// Sends what is queued and waits until the server has done it: only then may pixels it
// reads be written again.
void ovs_shm_image_sync(ovs_shm_image *image);
void ovs_shm_image_destroy(ovs_shm_image *image);

// Xlib on SDL's connection (`NativeDisplay`): its socket; the root window's size (0 when
// unknown); events Xlib has read and not yet handed out (XEventsQueued, QueuedAlready);
// the handler called when the connection is lost instead of Xlib's, which exits.
int ovs_x11_connection_number(void *display);
int ovs_x11_root_size(void *display, int *width, int *height);
int ovs_x11_events_already_queued(void *display);
// Asks for the root window's ConfigureNotify (the screen resized: xrandr, a monitor
// swapped) on this connection, so it arrives as an event; returns the root's XID, 0 on failure.
unsigned long ovs_x11_watch_root_size(void *display);
void ovs_x11_on_connection_lost(int (*handler)(void *display));
// The default X screen's density in dots per inch, on a connection of our own to $DISPLAY
// (SDL's is not reachable before a window exists); 0 when unknown.
double ovs_x11_screen_dpi(void);
#endif
