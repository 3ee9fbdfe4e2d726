#ifndef OVERSCROLL_EARLY_SIGNALS_H
#define OVERSCROLL_EARLY_SIGNALS_H

// The signals that came between exec and `SignalHandling.installProcessDefaults`, kept by
// the catcher early_signals.c registers in `.preinit_array` (it says why).

// The first stopping signal (SIGTERM, SIGINT, SIGALRM, SIGXCPU, SIGPWR) that came, or 0.
int ovs_early_stop_signal(void);
// Whether a SIGHUP came.
int ovs_early_hangup(void);

#endif
