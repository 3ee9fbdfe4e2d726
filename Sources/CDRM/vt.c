#define _GNU_SOURCE
#include "drmdumb.h"
#include "failure.h"
#include <errno.h>
#include <fcntl.h>
#include <linux/kd.h>
#include <linux/vt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

struct ovs_vt {
    int fd;
    int owned;          // opened here (closed at the end)
    int number;
    struct vt_mode old_mode;
    int old_kd;
    struct sigaction old_release, old_acquire;
};

// Set by the signal handlers, read and cleared by the frame loop (`ovs_vt_pending`): a
// handler does nothing else (SDL's event queue takes a lock a handler could find held),
// so a switch never waits on a frame in progress.
static volatile sig_atomic_t release_asked, acquire_asked;

static void on_release(int sig) { (void)sig; release_asked = 1; acquire_asked = 0; }
static void on_acquire(int sig) { (void)sig; acquire_asked = 1; }

ovs_vt *ovs_vt_take(int fd, char *why, int why_size) {
    int owned = 0;
    if (fd < 0) {
        fd = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY);
        if (fd < 0) { ovs_fail(why, why_size, "no controlling terminal"); return NULL; }
        owned = 1;
    }
    struct stat st;
    // A virtual console is major 4, minors 1-63 (/dev/tty1...): not a pty, not a serial line.
    struct vt_stat state;
    if (fstat(fd, &st) != 0 || !S_ISCHR(st.st_mode) || major(st.st_rdev) != 4 || minor(st.st_rdev) < 1
        || minor(st.st_rdev) > 63 || ioctl(fd, VT_GETSTATE, &state) != 0) {
        if (owned) close(fd);
        ovs_fail(why, why_size, "not on a virtual console");
        return NULL;
    }
    ovs_vt *vt = calloc(1, sizeof *vt);
    if (!vt) { if (owned) close(fd); ovs_fail(why, why_size, "out of memory"); return NULL; }
    vt->fd = fd;
    vt->owned = owned;
    vt->number = (int)minor(st.st_rdev);
    if (ioctl(fd, VT_GETMODE, &vt->old_mode) != 0 || ioctl(fd, KDGETMODE, &vt->old_kd) != 0) {
        ovs_fail(why, why_size, "the console refuses VT_GETMODE/KDGETMODE: %s", strerror(errno));
        if (owned) close(fd);
        free(vt);
        return NULL;
    }
    release_asked = acquire_asked = 0;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    action.sa_handler = on_release;
    sigaction(SIGUSR1, &action, &vt->old_release);
    action.sa_handler = on_acquire;
    sigaction(SIGUSR2, &action, &vt->old_acquire);
    struct vt_mode mode = { .mode = VT_PROCESS, .relsig = SIGUSR1, .acqsig = SIGUSR2 };
    if (ioctl(fd, VT_SETMODE, &mode) != 0) {
        ovs_fail(why, why_size, "the console refuses VT_SETMODE: %s", strerror(errno));
        sigaction(SIGUSR1, &vt->old_release, NULL);
        sigaction(SIGUSR2, &vt->old_acquire, NULL);
        if (owned) close(fd);
        free(vt);
        return NULL;
    }
    // No text cursor or console output over the picture.
    ioctl(fd, KDSETMODE, KD_GRAPHICS);
    return vt;
}

int ovs_vt_pending(ovs_vt *vt) {
    (void)vt;
    if (release_asked) { release_asked = 0; return 1; }
    if (acquire_asked) { acquire_asked = 0; return 2; }
    return 0;
}

int ovs_vt_release_done(ovs_vt *vt) { return ioctl(vt->fd, VT_RELDISP, 1); }
int ovs_vt_acquire_done(ovs_vt *vt) { return ioctl(vt->fd, VT_RELDISP, VT_ACKACQ); }
int ovs_vt_number(const ovs_vt *vt) { return vt->number; }

void ovs_vt_give_back(ovs_vt *vt) {
    if (!vt) return;
    ioctl(vt->fd, KDSETMODE, vt->old_kd == KD_GRAPHICS ? KD_TEXT : vt->old_kd);
    struct vt_mode mode = vt->old_mode;
    if (mode.mode == VT_PROCESS) mode.mode = VT_AUTO;
    ioctl(vt->fd, VT_SETMODE, &mode);
    sigaction(SIGUSR1, &vt->old_release, NULL);
    sigaction(SIGUSR2, &vt->old_acquire, NULL);
    if (vt->owned) close(vt->fd);
    free(vt);
}
