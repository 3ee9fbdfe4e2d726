#define _GNU_SOURCE
#include "surfaceonly.h"
#include "failure.h"
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

// MARK: What the loader answers

// Vulkan's VkExtensionProperties and the two results used, without Vulkan's headers
// (libvulkan-dev is not otherwise needed).
typedef struct { char extensionName[256]; uint32_t specVersion; } ExtensionProperties;
enum { vk_success = 0, vk_incomplete = 5, vk_layer_not_present = -6 };

static const char *const offered[] = { "VK_KHR_surface", "VK_KHR_wayland_surface" };

// vkEnumerateInstanceExtensionProperties: the two surface extensions SDL checks for.
static int32_t enumerate_extensions(const char *layer, uint32_t *count, ExtensionProperties *properties) {
    if (layer) return vk_layer_not_present;
    uint32_t total = sizeof offered / sizeof offered[0];
    if (!properties) { *count = total; return vk_success; }
    uint32_t written = *count < total ? *count : total;
    for (uint32_t i = 0; i < written; i++) {
        memset(&properties[i], 0, sizeof properties[i]);
        snprintf(properties[i].extensionName, sizeof properties[i].extensionName, "%s", offered[i]);
        properties[i].specVersion = 1;
    }
    *count = written;
    return written < total ? vk_incomplete : vk_success;
}

// vkGetInstanceProcAddr: only the one function SDL looks up before making a window. Any
// other (an instance, a surface) is refused, as a loader without drivers would.
static void *get_instance_proc_addr(void *instance, const char *name) {
    if (!instance && name && strcmp(name, "vkEnumerateInstanceExtensionProperties") == 0)
        return (void *)enumerate_extensions;
    return NULL;
}

// MARK: The shared object

// One read-write segment (the dynamic loader may adjust the dynamic section in place),
// not executable: a dynamic section, a SysV hash table, one symbol and its name.
typedef struct {
    ElfW(Ehdr) header;
    ElfW(Phdr) segments[3];
    ElfW(Dyn) dynamic[7];
    ElfW(Sym) symbols[2];
    Elf32_Word hash[2 + 1 + 2];     // nbucket, nchain, the bucket, the chain
    char names[64];
} Image;

static const char symbol_name[] = "vkGetInstanceProcAddr";
static const char soname[] = "overscroll-surface-only.so";

// The object, made for this machine as `own` (this program's ELF header) is: its class,
// byte order, machine and ABI flags (an ARM hard-float program loads only hard-float
// objects).
static void make_image(Image *image, const ElfW(Ehdr) *own) {
    memset(image, 0, sizeof *image);
    const ElfW(Addr) base = 0;
#define AT(field) (base + (ElfW(Addr))offsetof(Image, field))
    memcpy(image->header.e_ident, own->e_ident, EI_NIDENT);
    image->header.e_type = ET_DYN;
    image->header.e_machine = own->e_machine;
    image->header.e_version = EV_CURRENT;
    image->header.e_phoff = offsetof(Image, segments);
    image->header.e_flags = own->e_flags;
    image->header.e_ehsize = sizeof(ElfW(Ehdr));
    image->header.e_phentsize = sizeof(ElfW(Phdr));
    image->header.e_phnum = 3;
    // Large enough for 4 KiB and 64 KiB pages alike.
    image->segments[0] = (ElfW(Phdr)){ .p_type = PT_LOAD, .p_flags = PF_R | PF_W, .p_offset = 0, .p_vaddr = 0,
                                       .p_paddr = 0, .p_filesz = sizeof *image, .p_memsz = sizeof *image,
                                       .p_align = 0x10000 };
    image->segments[1] = (ElfW(Phdr)){ .p_type = PT_DYNAMIC, .p_flags = PF_R | PF_W, .p_offset = offsetof(Image, dynamic),
                                       .p_vaddr = AT(dynamic), .p_paddr = AT(dynamic),
                                       .p_filesz = sizeof image->dynamic, .p_memsz = sizeof image->dynamic, .p_align = 8 };
    // Without it the loader would make the process's stacks executable for us.
    image->segments[2] = (ElfW(Phdr)){ .p_type = PT_GNU_STACK, .p_flags = PF_R | PF_W, .p_align = 16 };
    size_t name_at = 1, soname_at = name_at + sizeof symbol_name;
    memcpy(image->names + name_at, symbol_name, sizeof symbol_name);
    _Static_assert(1 + sizeof symbol_name + sizeof soname <= sizeof image->names, "names fit");
    memcpy(image->names + soname_at, soname, sizeof soname);
    int d = 0;
    image->dynamic[d++] = (ElfW(Dyn)){ .d_tag = DT_HASH, .d_un.d_ptr = AT(hash) };
    image->dynamic[d++] = (ElfW(Dyn)){ .d_tag = DT_STRTAB, .d_un.d_ptr = AT(names) };
    image->dynamic[d++] = (ElfW(Dyn)){ .d_tag = DT_SYMTAB, .d_un.d_ptr = AT(symbols) };
    image->dynamic[d++] = (ElfW(Dyn)){ .d_tag = DT_STRSZ, .d_un.d_val = sizeof image->names };
    image->dynamic[d++] = (ElfW(Dyn)){ .d_tag = DT_SYMENT, .d_un.d_val = sizeof(ElfW(Sym)) };
    image->dynamic[d++] = (ElfW(Dyn)){ .d_tag = DT_SONAME, .d_un.d_val = soname_at };
    image->dynamic[d] = (ElfW(Dyn)){ .d_tag = DT_NULL };
#undef AT
    // The symbol is absolute (SHN_ABS): its value is an address in this program, which
    // the dynamic loader returns as it is (glibc 2.28 and later) instead of adding the
    // object's base; so the object needs no code of its own.
    image->symbols[1].st_name = (ElfW(Word))name_at;
    image->symbols[1].st_info = ELF32_ST_INFO(STB_GLOBAL, STT_FUNC);   // the same bits in ELF64
    image->symbols[1].st_other = STV_DEFAULT;
    image->symbols[1].st_shndx = SHN_ABS;
    image->symbols[1].st_value = (ElfW(Addr))(uintptr_t)get_instance_proc_addr;
    // One bucket holding symbol 1, whose chain ends.
    image->hash[0] = 1;
    image->hash[1] = 2;
    image->hash[2] = 1;
    image->hash[3] = 0;
    image->hash[4] = 0;
}

// A file of its own for the object, in memory (memfd): its descriptor, or -1.
static int write_image(const Image *image, char *why, int why_size) {
    int fd = memfd_create("overscroll-surface-only", MFD_CLOEXEC);
    if (fd < 0) {
        ovs_fail(why, why_size, "memfd_create failed");
        return -1;
    }
    const char *bytes = (const char *)image;
    size_t left = sizeof *image;
    while (left > 0) {
        ssize_t n = write(fd, bytes, left);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            close(fd);
            ovs_fail(why, why_size, "cannot write the Vulkan loader stand-in");
            return -1;
        }
        bytes += n;
        left -= (size_t)n;
    }
    return fd;
}

int ovs_surface_only_loader(char *path, int path_size, char *why, int why_size) {
    // Made for this machine as this program is, from its own header.
    Dl_info self;
    if (!dladdr((void *)get_instance_proc_addr, &self) || !self.dli_fbase) {
        ovs_fail(why, why_size, "cannot find this program's own ELF header");
        return -1;
    }
    const ElfW(Ehdr) *own = self.dli_fbase;
    if (memcmp(own->e_ident, ELFMAG, SELFMAG) != 0) {
        ovs_fail(why, why_size, "this program's first mapped page is not an ELF header");
        return -1;
    }
    Image image;
    make_image(&image, own);
    int fd = write_image(&image, why, why_size);
    if (fd < 0) return -1;
    snprintf(path, (size_t)path_size, "/proc/self/fd/%d", fd);
    return fd;
}
