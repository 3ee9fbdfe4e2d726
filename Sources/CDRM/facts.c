#define _GNU_SOURCE
#include "drmdumb.h"
#include <xf86drm.h>
#include <virtgpu_drm.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static int by_name(const void *a, const void *b) {
    return strcmp(((const ovs_drm_render_node *)a)->node, ((const ovs_drm_render_node *)b)->node);
}

// The driver behind a node from sysfs, where the node cannot be opened (no access).
static void sysfs_driver(const char *name, char *driver, size_t size) {
    char link[128], target[PATH_MAX];
    snprintf(link, sizeof link, "/sys/class/drm/%s/device/driver", name);
    ssize_t n = readlink(link, target, sizeof target - 1);
    if (n <= 0) return;
    target[n] = 0;
    const char *slash = strrchr(target, '/');
    snprintf(driver, size, "%s", slash ? slash + 1 : target);
}

int ovs_drm_render_nodes(const char *dir, ovs_drm_render_node *nodes, int most) {
    DIR *d = opendir(dir);
    if (!d) return -1;
    int count = 0;
    struct dirent *e;
    while ((e = readdir(d)) && count < most) {
        if (strncmp(e->d_name, "renderD", 7) != 0) continue;
        ovs_drm_render_node *n = &nodes[count++];
        memset(n, 0, sizeof *n);
        n->has_3d = -1;
        snprintf(n->node, sizeof n->node, "%s/%s", dir, e->d_name);
        // A render node may be opened by anyone in the render group, and asking its
        // version or a parameter loads nothing.
        int fd = open(n->node, O_RDWR | O_CLOEXEC);
        if (fd < 0) {
            sysfs_driver(e->d_name, n->driver, sizeof n->driver);
            continue;
        }
        drmVersion *v = drmGetVersion(fd);
        if (v) {
            snprintf(n->driver, sizeof n->driver, "%s", v->name);
            drmFreeVersion(v);
        }
        if (strcmp(n->driver, "virtio_gpu") == 0) {
            // 3D only where the host gives virgl or venus: without it, Mesa's virgl
            // driver cannot start and EGL is llvmpipe.
            int value = 0;
            struct drm_virtgpu_getparam param = { .param = VIRTGPU_PARAM_3D_FEATURES, .value = (uint64_t)(uintptr_t)&value };
            n->has_3d = drmIoctl(fd, DRM_IOCTL_VIRTGPU_GETPARAM, &param) == 0 ? value != 0 : -1;
        }
        close(fd);
    }
    closedir(d);
    qsort(nodes, (size_t)count, sizeof *nodes, by_name);
    return count;
}

int ovs_drm_library_installed(const char *name) {
    // Debian's multiarch directories first, then the classic ones.
    static const char *dirs[] = {
#if defined(__x86_64__)
        "/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu",
#elif defined(__aarch64__)
        "/usr/lib/aarch64-linux-gnu", "/lib/aarch64-linux-gnu",
#elif defined(__arm__)
        "/usr/lib/arm-linux-gnueabihf", "/lib/arm-linux-gnueabihf",
#elif defined(__riscv)
        "/usr/lib/riscv64-linux-gnu", "/lib/riscv64-linux-gnu",
#endif
        "/usr/lib64", "/lib64", "/usr/lib", "/lib", "/usr/local/lib",
    };
    if (strchr(name, '/')) return access(name, F_OK) == 0;
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", dirs[i], name);
        if (access(path, F_OK) == 0) return 1;
    }
    return 0;
}
