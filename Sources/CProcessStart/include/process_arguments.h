#ifndef OVERSCROLL_PROCESS_ARGUMENTS_H
#define OVERSCROLL_PROCESS_ARGUMENTS_H

// The command line exactly as the process received it from execve: argc and argv as glibc
// passes them to the program's `.preinit_array` functions, before any library runs code.
//
// Not Swift's `CommandLine.arguments`: a statically linked Swift runtime does not get argv
// from the loader; it guesses it by walking back from `environ` (which sits just after
// argv on the initial stack) and falls back to /proc/self/cmdline. Both guesses fail in
// ordinary setups: a library constructor that calls setenv() before main (sdl2-compat
// copies SDL 2 variables to their SDL 3 names) makes glibc move `environ` to the heap, and
// a process without /proc (a container, `unshare`) has no cmdline to read. Either way the
// program lost its whole command line and ran a plain window.

// argc as the process received it; 0 when the capture did not run (a program that links
// this code as a library, not as its executable: only an executable's `.preinit_array` runs).
int ovs_process_argc(void);

// argv[i] for 0 <= i < ovs_process_argc(), else NULL. The strings are the process's own,
// on its initial stack: they live as long as the process.
const char *ovs_process_argument(int i);

#endif
