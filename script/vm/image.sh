# The virtual machine's image, shared by script/vm-test and script/bench-kiosk (sourced,
# not run): the prerequisites, the cached base tree, the image with the package installed,
# the accelerator. The caller sets `me` (its name, for messages) before sourcing it, and
# `cd`s to the checkout's root; `vm_arch=arm64` before sourcing it makes the arm64 machine
# (script/vm-test --arch arm64): Debian 13 arm64, booted by qemu-system-aarch64.
#
# Cache ($VM_TEST_CACHE, default /var/cache/overscroll-vm): the debootstrapped tree with
# the test's own packages (base-KEY.tar, keyed by the mirror and the package list), the
# .debs apt fetched, and one image per variant with the package installed
# (image-VARIANT-KEY.img, keyed by the base, the .deb, the agent and its units, the
# variant's packages and files, and vm_image's own code): an image is rebuilt only
# when one of those changes. arm64's are apart, in $VM_TEST_CACHE/arm64.

vm_arch=${vm_arch:-amd64}
say() { echo "$me: $*"; }
skip() { say "SKIPPED: $*"; exit 77; }
fail() { say "FAIL: $*" >&2; exit 1; }
t_start=$(date +%s); t_phase=$t_start
phase() { local now; now=$(date +%s); say "time: $1 $((now - t_phase)) s (total $((now - t_start)) s)"; t_phase=$now; }

# vm_require: root, the tools, Debian's mirror (sets `mirror`); SKIPPED (exit 77) and why
# without one of them. Then the cache and a work folder that goes at exit (sets `cache`,
# `work`, `root`).
vm_require() {
  [ "$(id -u)" -eq 0 ] || skip "needs root (debootstrap, chroot, the image's file owners)"
  local tool probe qemu=qemu-system-x86_64 suite=bookworm bootstrap=--test
  [ "$vm_arch" = amd64 ] || { qemu=qemu-system-aarch64; suite=trixie; bootstrap=--arm64; }
  for tool in $qemu qemu-img debootstrap mkfs.ext4 python3; do
    command -v "$tool" >/dev/null || skip "$tool is not installed (script/bootstrap $bootstrap installs it)"
  done
  python3 -c 'import numpy' 2>/dev/null || skip "python3-numpy is not installed (script/bootstrap $bootstrap installs it)"
  [ "$vm_arch" = amd64 ] || vm_binfmt
  mirror=$(script/debian-mirror bookworm $suite); mirror=${mirror%/}
  [ -n "$mirror" ] || skip "no bookworm 'deb' source in this machine's apt sources to take a mirror from"
  probe=$(mktemp)
  if ! timeout 30 /usr/lib/apt/apt-helper download-file "$mirror/dists/$suite/Release" "$probe" >/dev/null 2>&1; then
    rm -f "$probe"; skip "cannot reach Debian's mirror $mirror (no network?)"
  fi
  rm -f "$probe"
  cache=${VM_TEST_CACHE:-/var/cache/overscroll-vm}
  [ "$vm_arch" = amd64 ] || cache="$cache/arm64"
  mkdir -p "$cache/archives/partial"
  work=$(mktemp -d "${TMPDIR:-/tmp}/overscroll-vm.XXXXXX")
  root="$work/root"
  trap vm_cleanup EXIT
}

# vm_binfmt: arm64 programs in the image's tree (apt's, dpkg's scripts) run on this amd64
# machine through binfmt_misc and qemu-aarch64, as in script/test-arm64.
vm_binfmt() {
  command -v update-binfmts >/dev/null && [ -e /usr/libexec/qemu-binfmt/aarch64-binfmt-P ] ||
    skip "qemu-user-static and binfmt-support are not installed (script/bootstrap --arm64 installs them)"
  [ -e /proc/sys/fs/binfmt_misc/status ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc ||
    skip "cannot mount binfmt_misc"
  [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 ||
    skip "cannot register qemu-aarch64 with binfmt_misc"
  grep -q '^enabled' /proc/sys/fs/binfmt_misc/qemu-aarch64 || skip "qemu-aarch64 is registered but disabled"
}

vm_cleanup() {
  if [ -s "$work/qemu.pid" ]; then kill "$(cat "$work/qemu.pid")" 2>/dev/null || true; fi
  local m
  for m in "$root/var/cache/apt/archives" "$root/dev/pts" "$root/proc"; do
    if mountpoint -q "$m" 2>/dev/null; then umount -l "$m" || true; fi
  done
  rm -rf --one-file-system "$work"
}

in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
  DEBIAN_FRONTEND=noninteractive "$@"; }
# dpkg without an fsync per file: the tree is thrown away if anything fails.
unsafe_io() { echo 'force-unsafe-io' > "$root/etc/dpkg/dpkg.cfg.d/vm-test-unsafe-io"; }
with_archives() { mount --bind "$cache/archives" "$root/var/cache/apt/archives"; }
# Trixie's apt logs through a pseudo-terminal (without one: "E: Can not write log").
with_pts() { mkdir -p "$root/dev/pts"; mount -t devpts -o newinstance,ptmxmode=0666 devpts "$root/dev/pts"; }

# ---- vm_base: Debian 12 minbase plus what the test needs, not what the app needs (sets
# `base_key`, `base`). linux-image-amd64 (its own kernel, booted with -kernel/-initrd),
# systemd as PID 1, udev, dbus and logind (libpam-systemd) as on any installed system,
# python3-evdev for the agent's touchscreen, Debian's node_exporter for README step 8,
# and cage for the cage unit, which the README has the operator install (`apt install cage`).
vm_base() {
  [ "$vm_arch" = amd64 ] || { vm_base_arm64 "$@"; return; }
  local base_packages="linux-image-amd64 systemd-sysv udev dbus kmod libpam-systemd python3 python3-evdev prometheus-node-exporter cage"
  base_key=$(echo "bookworm $mirror $base_packages v2" | sha256sum | cut -c1-16)
  base="$cache/base-$base_key.tar"
  [ ! -f "$base" ] || return 0
  say "debootstrap --variant=minbase bookworm from $mirror (cached in $base)"
  debootstrap --variant=minbase --cache-dir="$cache/archives" bookworm "$root" "$mirror" > "$work/debootstrap.log" 2>&1 ||
    { tail -20 "$work/debootstrap.log" >&2; fail "debootstrap failed (log above)"; }
  unsafe_io
  mount -t proc proc "$root/proc"
  with_archives
  in_root apt-get update -q > "$work/apt.log" 2>&1 || { tail "$work/apt.log" >&2; fail "apt-get update in the chroot"; }
  # shellcheck disable=SC2086
  in_root apt-get install -y -q --no-install-recommends $base_packages >> "$work/apt.log" 2>&1 ||
    { tail -20 "$work/apt.log" >&2; fail "apt-get install of the base packages"; }
  # An initramfs with the virtual machine's few modules (disk, file system), not Debian's
  # "most": a tenth of the size, some 20 s less per boot under emulation.
  printf 'virtio_pci\nvirtio_blk\next4\ncrc32c_generic\n' >> "$root/etc/initramfs-tools/modules"
  echo MODULES=list > "$root/etc/initramfs-tools/conf.d/vm-test"
  in_root update-initramfs -u >> "$work/apt.log" 2>&1 || { tail -20 "$work/apt.log" >&2; fail "update-initramfs"; }
  umount "$root/var/cache/apt/archives" "$root/proc"
  rm -f "$root/etc/dpkg/dpkg.cfg.d/vm-test-unsafe-io"
  tar -C "$root" -cf "$base.tmp" . && mv "$base.tmp" "$base"
  rm -f "$cache"/base-*.tar.tmp
  local old
  for old in "$cache"/base-*.tar; do [ "$old" = "$base" ] || rm -f "$old"; done
  phase "base tree (debootstrap and the test's packages)"
}

# ---- vm_base_arm64 DEB: Debian 13 arm64 from script/test-arm64's debootstrapped tree (the
# same tar: an emulated debootstrap saved) or a debootstrap of our own; then, as amd64's,
# the kernel (linux-image-arm64), systemd, udev, dbus, logind, python3-evdev for the agent,
# and here also the package's Depends and Recommends (keyed by them, as script/test-arm64
# keys its tree): every program in the tree runs under qemu-aarch64 (binfmt_misc), and
# apt installing Mesa and its kin takes tens of minutes; cached, a new .deb's image is
# apt installing the one file. No cage or node_exporter: the arm64 boot checks the KMSDRM
# unit only (script/vm/drive.py, ARM64_BOOT).
vm_base_arm64() {
  local deb=$1 from
  local base_packages="linux-image-arm64 systemd-sysv udev dbus kmod libpam-systemd python3 python3-evdev"
  # Its Depends and Recommends, version constraints and other alternatives dropped.
  base_packages="$base_packages $(for f in Depends Recommends; do dpkg-deb -f "$deb" "$f"; echo ,; done |
    sed 's/([^)]*)//g; s/|[^,]*//g; s/,/ /g' | xargs)"
  from=${OVERSCROLL_ARM64_CACHE:-/var/cache/overscroll-arm64}/test-base-trixie-arm64.tar
  base_key=$(echo "trixie arm64 $mirror $base_packages v1" | sha256sum | cut -c1-16)
  base="$cache/base-$base_key.tar"
  [ ! -f "$base" ] || return 0
  mkdir -p "$root"
  if [ -f "$from" ]; then
    say "arm64 Debian 13 from script/test-arm64's debootstrapped tree $from (cached with the packages in $base)"
    tar -C "$root" -xf "$from"
  else
    say "debootstrap --arch=arm64 --variant=minbase trixie from $mirror, second stage under qemu (cached in $base)"
    debootstrap --arch=arm64 --variant=minbase --cache-dir="$cache/archives" trixie "$root" "$mirror" > "$work/debootstrap.log" 2>&1 ||
      { tail -20 "$work/debootstrap.log" >&2; fail "debootstrap failed (log above)"; }
  fi
  phase "arm64 tree"
  unsafe_io
  mount -t proc proc "$root/proc"
  with_pts
  with_archives
  # The initramfs with the machine's few modules (disk, file system) from its first making:
  # a whole one ("most") takes minutes to pack under emulation.
  mkdir -p "$root/etc/initramfs-tools/conf.d"
  echo MODULES=list > "$root/etc/initramfs-tools/conf.d/vm-test"
  in_root apt-get update -q > "$work/apt.log" 2>&1 || { tail "$work/apt.log" >&2; fail "apt-get update in the chroot"; }
  # shellcheck disable=SC2086
  in_root apt-get install -y -q --no-install-recommends $base_packages >> "$work/apt.log" 2>&1 ||
    { tail -20 "$work/apt.log" >&2; fail "apt-get install of the base packages"; }
  printf 'virtio_pci\nvirtio_blk\next4\ncrc32c_generic\n' >> "$root/etc/initramfs-tools/modules"
  in_root update-initramfs -u >> "$work/apt.log" 2>&1 || { tail -20 "$work/apt.log" >&2; fail "update-initramfs"; }
  umount "$root/var/cache/apt/archives" "$root/dev/pts" "$root/proc"
  rm -f "$root/etc/dpkg/dpkg.cfg.d/vm-test-unsafe-io"
  tar -C "$root" -cf "$base.tmp" . && mv "$base.tmp" "$base"
  rm -f "$cache"/base-*.tar.tmp
  local old
  for old in "$cache"/base-*.tar; do [ "$old" = "$base" ] || rm -f "$old"; done
  rm -rf --one-file-system "$root"
  phase "base tree (arm64: the kernel, systemd, the agent's and the package's packages, under emulation)"
}

# ---- vm_image DEB VARIANT [PACKAGES QML_DIR]: the base with the package installed, the
# agent, the test's settings (sets `image`; its kernel and initrd beside it as
# IMAGE.vmlinuz and IMAGE.initrd). VARIANT names the image in the cache (one kept per
# variant): `plain` is script/vm-test's; another variant adds PACKAGES (without their
# Recommends, after the package) and QML_DIR's *.qml files in
# /usr/local/lib/vm-test/qml (script/bench-kiosk's Qt Quick peer).
vm_image() {
  local deb=$1 variant=$2 packages=${3:-} qml=${4:-} image_key
  image_key=$( { echo "$base_key $variant $packages"; sha256sum "$deb" | cut -c1-64; cat script/vm/agent.py script/vm/*.service script/vm/gather-check.c;
                 [ -z "$qml" ] || cat "$qml"/*.qml script/vm/*.qml; declare -f vm_image; } | sha256sum | cut -c1-16)
  image="$cache/image-$variant-$image_key.img"
  [ ! -f "$image" ] || return 0
  say "building the image ($variant): $(basename "$deb") installed with apt-get (cached in $image)"
  rm -rf "$root"; mkdir -p "$root"
  tar -C "$root" -xf "$base"
  unsafe_io
  mount -t proc proc "$root/proc"
  with_archives
  [ "$vm_arch" = amd64 ] || with_pts
  cp "$deb" "$root/tmp/"
  # As an operator: apt-get install ./overscroll_*.deb, Recommends included.
  in_root apt-get install -y -q "./tmp/$(basename "$deb")" > "$work/apt.log" 2>&1 ||
    { tail -30 "$work/apt.log" >&2; fail "apt-get install ./$(basename "$deb")"; }
  grep -E '^(Get|Setting up)' "$work/apt.log" | grep -c '^Setting up' | xargs -I{} echo "$me: the package pulled {} packages in"
  if [ -n "$packages" ]; then
    # shellcheck disable=SC2086
    in_root apt-get install -y -q --no-install-recommends $packages > "$work/apt-extra.log" 2>&1 ||
      { tail -30 "$work/apt-extra.log" >&2; fail "apt-get install $packages"; }
    say "the $variant variant: $packages ($(grep -c '^Setting up' "$work/apt-extra.log") packages)"
  fi
  in_root apt-get clean
  rm -f "$root/tmp/$(basename "$deb")" "$root/etc/dpkg/dpkg.cfg.d/vm-test-unsafe-io"
  [ "$vm_arch" = amd64 ] || umount "$root/dev/pts"
  umount "$root/var/cache/apt/archives" "$root/proc"
  # The agent (command channel and touchscreen), started before either kiosk unit.
  install -D -m 0755 script/vm/agent.py "$root/usr/local/lib/vm-test/agent.py"
  install -m 0644 script/vm/vm-agent.service "$root/etc/systemd/system/vm-agent.service"
  install -m 0644 script/vm/vm-clock.service "$root/etc/systemd/system/vm-clock.service"
  if [ -n "$qml" ]; then install -D -m 0644 -t "$root/usr/local/lib/vm-test/qml" "$qml"/*.qml script/vm/*.qml; fi
  in_root systemctl enable vm-agent.service vm-clock.service >/dev/null 2>&1
  # The emulated CPU's AVX2 gather, checked at boot (cpu-gather): the kiosk's llvmpipe
  # gathers, and QEMU 7.2's emulation got them wrong (script/vm/gather-check.c). x86 only.
  if [ "$vm_arch" = amd64 ]; then
    clang -O1 -mavx2 -ffreestanding -nostdlib -static -fno-stack-protector -fno-pie \
        -o "$root/usr/local/lib/vm-test/gather-check" script/vm/gather-check.c || fail "cannot build script/vm/gather-check.c"
  fi
  echo "/dev/vda / ext4 rw,errors=remount-ro 0 1" > "$root/etc/fstab"
  echo kiosk > "$root/etc/hostname"
  # The test's settings: a report per run (frames.csv is the ground truth of what each
  # frame did), three kept (the test starts more runs than that: which ones go shows
  # whether they are pruned by the order they started), and rows for the reload check.
  printf 'report = "/var/lib/overscroll/reports"\nreport-keep = 3\n' > "$root/etc/overscroll/kiosk.toml.d/50-vm-test.toml"
  local i days run uid gid
  for i in $(seq 1 40); do printf 'Reloaded row %02d\n' "$i"; done > "$root/etc/overscroll/vm-rows.txt"
  # Two runs from before, named by a clock that was right then (a day and two ago): the
  # guest boots with its clock years behind these names.
  uid=$(in_root id -u overscroll); gid=$(in_root id -g overscroll)
  install -d -o "$uid" -g "$gid" -m 0750 "$root/var/lib/overscroll"
  install -d -o "$uid" -g "$gid" -m 0755 "$root/var/lib/overscroll/reports"
  for days in 2 1; do
    run="$root/var/lib/overscroll/reports/$(date -u -d "-$days days" +%Y-%m-%dT%H-%M-%SZ)"
    install -d -o "$uid" -g "$gid" -m 0755 "$run"
    echo '{"earlier_run": true}' > "$run/summary.json"; echo 'frame' > "$run/frames.csv"
    chown "$uid:$gid" "$run"/*
    basename "$run" >> "$root/etc/vm-test-earlier-runs"
  done
  # README step 4, the KMSDRM unit first.
  in_root systemctl enable overscroll-kiosk.service >/dev/null 2>&1
  in_root systemctl set-default multi-user.target >/dev/null 2>&1
  cp "$root"/boot/vmlinuz-* "$work/vmlinuz"; cp "$root"/boot/initrd.img-* "$work/initrd.img"
  mkfs.ext4 -q -F -L kiosk -d "$root" "$image.tmp" 3G > "$work/mkfs.log" 2>&1 || { cat "$work/mkfs.log" >&2; fail "mkfs.ext4 -d"; }
  mv "$work/vmlinuz" "$image.vmlinuz"; mv "$work/initrd.img" "$image.initrd"; mv "$image.tmp" "$image"
  # Older images of this variant go: one is kept a variant.
  local old
  for old in "$cache/image-$variant"-*.img; do [ "$old" = "$image" ] || rm -f "$old" "$old.vmlinuz" "$old.initrd"; done
  rm -rf "$root"
  phase "image ($variant)"
}

# vm_accel [CPU]: KVM only where a guest kernel really runs under it, else TCG; sets
# `accel` and says which and why. `/dev/kvm` can open, make a VM and run real-mode code
# while the guest kernel hangs at its switch to long mode (nested KVM that is broken: the
# console stops after "Probing EDD ... ok"); a probe that only starts QEMU, or starts it
# stopped (-S), passes there. So the probe boots the image's own kernel under KVM with its
# console on a file and waits, at most $VM_KVM_PROBE_SECONDS (20), for the kernel's banner
# ("Linux version", printed by earlyprintk as the kernel starts: well under a second where
# KVM works). VM_TEST_ACCEL=tcg or kvm skips the probe. $VM_KVM_DEVICE (/dev/kvm) is the
# device it looks for (the test of this function points it elsewhere).
# TCG's CPU offers no AVX2: QEMU 7.2 (Debian 12's) emulates VPGATHERDD with ymm4 as the
# index wrongly, and Mesa's llvmpipe, which draws the KMSDRM kiosk's GLES2 here, fetches
# vertices with such gathers where the CPU has AVX2: the kiosk died of SIGSEGV in
# llvmpipe's code at start, at some starts or at every one (the cpu-gather check names it
# if it comes back). `vm_accel CPU` asks TCG for another CPU model (script/bench-kiosk's
# Qt needs AVX2 whole).
vm_accel() {
  if [ "$vm_arch" = arm64 ]; then
    # No KVM for another architecture. pauth-impdef: the max CPU's pointer authentication
    # by QEMU's own cheap hash, not the architected QARMA (emulated, it costs every call).
    accel="-accel tcg -cpu max,pauth-impdef=on"
    say "accelerator: ${accel#-accel } (an arm64 guest on this $(uname -m) machine: software emulation)"
    return
  fi
  local tcg="-accel tcg -cpu ${1:-max,avx2=off}" kvm="-accel kvm -cpu host" device=${VM_KVM_DEVICE:-/dev/kvm}
  case "${VM_TEST_ACCEL:-}" in
    tcg) accel=$tcg; say "accelerator: ${accel#-accel } (VM_TEST_ACCEL=tcg)"; return ;;
    kvm) accel=$kvm; say "accelerator: ${accel#-accel } (VM_TEST_ACCEL=kvm, not probed)"; return ;;
    '') ;;
    *) fail "VM_TEST_ACCEL is '${VM_TEST_ACCEL}': use tcg or kvm (or leave it unset to probe)" ;;
  esac
  accel=$tcg
  if [ ! -w "$device" ]; then
    say "accelerator: ${accel#-accel } (no KVM: $device is not there or not writable)"; return
  fi
  local bound=${VM_KVM_PROBE_SECONDS:-20} log qlog pid t0 why=""
  log=$(mktemp); qlog=$(mktemp); t0=${EPOCHREALTIME/,/.}
  # shellcheck disable=SC2086
  qemu-system-x86_64 $kvm -display none -nodefaults -no-user-config -m 256 -kernel "$image.vmlinuz" \
      -append "console=ttyS0 earlyprintk=serial,ttyS0,115200 panic=-1" -serial "file:$log" -no-reboot \
      </dev/null >"$qlog" 2>&1 &
  pid=$!
  # (The loop's stderr is closed: bash reports a QEMU that aborts, as -cpu host does on
  # some nested hosts, as the job's death; the reason is read from QEMU's own output.)
  while :; do
    if grep -q "Linux version" "$log"; then
      accel=$kvm
      why="the guest kernel printed its first line $(elapsed_since "$t0") s after QEMU started"
    elif ! kill -0 "$pid" 2>/dev/null; then
      grep -q "Linux version" "$log" && continue
      why="KVM: QEMU exited before the guest printed anything: $(tail -1 "$qlog" | cut -c1-200)"
    elif [ "$(elapsed_since "$t0" 0)" -ge "$bound" ]; then
      why="KVM: $device opens but the guest printed nothing on its console within $bound s (a nested KVM that cannot run a guest kernel; TCG boots it)"
    else
      sleep 0.1; continue
    fi
    break
  done 2>/dev/null
  # KILL: a QEMU stuck in a KVM ioctl, or started with TERM blocked (as a test runner
  # may leave it), still goes.
  { kill -KILL "$pid"; wait "$pid"; } 2>/dev/null || true
  rm -f "$log" "$qlog"
  say "accelerator: ${accel#-accel } ($why)"
}

# elapsed_since EPOCHREALTIME [DECIMALS]: seconds since then, with 1 decimal (or DECIMALS).
elapsed_since() {
  local now=${EPOCHREALTIME/,/.}  # the radix of a locale with a decimal comma, too
  awk -v a="$1" -v b="$now" -v d="${2:-1}" 'BEGIN { printf "%.*f", d, (d == 0 ? int(b - a) : b - a) }'
}

# vm_drive ARGS…: boots a throw-away overlay of the image and runs script/vm/drive.py on
# it with ARGS (sets `status`, its exit status). Known bugs, being fixed, with the checks
# they fail: script/vm/xfail.json (or $VM_TEST_XFAIL), XFAIL until the fix lands. Each
# entry: a regular expression over check names, and the bug. Remove an entry when its fix
# is on main (the check then prints "PASS (listed as XFAIL, not hit here: …)");
# VM_TEST_STRICT=1 makes them failures.
vm_drive() {
  qemu-img create -q -f qcow2 -b "$image" -F raw "$work/run.qcow2"
  local xfail=${VM_TEST_XFAIL:-$(cat script/vm/xfail.json)}
  status=0
  # shellcheck disable=SC2086
  python3 script/vm/drive.py --me "$me" --arch "$vm_arch" --work "$work" --kernel "$image.vmlinuz" --initrd "$image.initrd" \
    --disk "$work/run.qcow2" --accel "$accel" --xfail "$xfail" ${VM_TEST_STRICT:+--strict} "$@" || status=$?
  cp "$work"/console*.log "$out/" 2>/dev/null || true
}
