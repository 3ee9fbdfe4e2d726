#ifndef OVERSCROLL_XSHM_H
#define OVERSCROLL_XSHM_H
#include <stdint.h>

// An image in memory shared with the X server (MIT-SHM), put on a window from any of its
// rows: the list is kept there as a ring of pixel rows, so a scroll changes which row is
// put first instead of rewriting the rows. Xlib's names clash with Swift's, so its types
// stay in here; its functions are looked up in the libX11 and libXext SDL already loaded,
// so a program that never opens an X display never loads them.
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
#endif
