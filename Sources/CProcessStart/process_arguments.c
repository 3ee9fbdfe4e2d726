// process_arguments.h says why. glibc calls every `.preinit_array` function of the
// executable with (argc, argv, envp), the same values main gets, in a dynamically and a
// statically linked program alike, before any shared library's initialiser: nothing can
// have moved or changed them yet. argv itself never moves (setenv() moves only environ's
// array), so keeping the pointer is enough.
#include "process_arguments.h"
#include <stddef.h>

static int captured_argc = 0;
static char **captured_argv = NULL;

static void capture_process_arguments(int argc, char **argv, char **envp) {
    (void)envp;
    if (argc < 0 || argv == NULL) return;
    captured_argc = argc;
    captured_argv = argv;
}

// `used`: nothing refers to the entry, and the optimiser must keep it.
__attribute__((section(".preinit_array"), used))
static void (*const capture_process_arguments_entry)(int, char **, char **) = capture_process_arguments;

int ovs_process_argc(void) { return captured_argc; }

const char *ovs_process_argument(int i) {
    if (i < 0 || i >= captured_argc || captured_argv == NULL) return NULL;
    return captured_argv[i];
}
