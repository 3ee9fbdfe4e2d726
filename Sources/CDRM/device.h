#ifndef OVS_DRM_DEVICE_H
#define OVS_DRM_DEVICE_H
// What dumb.c (the buffers and their flips) and device.c (the device opened: connector,
// mode, CRTC, primary plane) share: the device's state. Not a public header.
#include "drmdumb.h"
#include "chain.h"
#include <xf86drm.h>
#include <xf86drmMode.h>

_Static_assert(ovs_drm_most <= ovs_chain_most, "the chain holds every buffer");

typedef struct {
    uint32_t handle;        // the dumb buffer
    uint32_t pitch;         // bytes a row (the kernel's, at least width * 4)
    uint64_t size;
    uint32_t *pixels;       // mapped
    uint32_t fb;            // the framebuffer over it (0: none yet)
    uint32_t shown_fb;      // the one before, kept while it is on the screen (`framebuffer`)
    uint32_t fb_offset;     // the byte the framebuffer starts from (framebuffer offsets)
    int width, height;      // shown
    int columns, rows;      // the memory: a ring is wider (a turned screen's) or taller
    int x, y;               // the pixel the acquired frame shows from
} ovs_dumb_buffer;

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
    ovs_dumb_buffer buffers[ovs_drm_most];
    // Which buffer is drawn, queued (committed, its flip not yet done: one at a time) and
    // on the screen (CBufferChain).
    ovs_chain chain;
    int modeset;        // the next commit sets the mode (first, and after the VT came back)
    uint32_t scanout_fb, queued_fb;     // the framebuffer on the screen, and the one flipped to
    int broken;
    int refused;        // the first mode set was refused: another program is DRM master
    int active;         // the device is ours (DRM master) to show on
    int no_memory;      // the last acquire or commit was refused for want of memory (`why`)
    int stalled;        // a page flip never completed (the chain's `stall_ms`): broken too
    char why[224];      // what the driver refused, in its words, with what was asked
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

// How dumb.c's buffers are made, dropped and waited for (the chain's table).
extern const ovs_chain_ops ovs_drm_chain_ops;

#endif
