#include "drmdumb.h"
#include <errno.h>
#include <xf86drm.h>

int ovs_drm_crtc_vblank(int fd, uint32_t crtc_id, int *error) {
    uint64_t sequence = 0;
    int64_t ns = 0;
    *error = 0;
    if (drmCrtcGetSequence(fd, crtc_id, &sequence, &ns) == 0) return ovs_drm_vblank_counted;
    *error = errno;
    // drm_crtc_get_sequence_ioctl: !drm_dev_has_vblank(dev) -> -EOPNOTSUPP.
    return errno == EOPNOTSUPP ? ovs_drm_vblank_none : ovs_drm_vblank_unknown;
}
