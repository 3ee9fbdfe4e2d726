// libdrm (Debian's libdrm-dev): its pkg-config flags put /usr/include/libdrm on the
// include path, where xf86drmMode.h finds drm.h and drm_mode.h.
#include <xf86drm.h>
#include <xf86drmMode.h>
