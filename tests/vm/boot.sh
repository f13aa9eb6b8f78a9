#!/usr/bin/env bash
# Boot a throwaway Linux VM whose root is this machine's own file system, read-only, with
# cgroup v2 (the unified hierarchy, every controller), and run one script in it as root:
#
#     bash tests/vm/boot.sh SCRIPT        # exits with the script's status
#
# For the parts of the kit that depend on the kernel's set-up rather than on Python: the
# grader's control groups are v1 on the machines CI has, v2 on current systemd hosts, and a
# VM is how both get tested on one machine. Needs qemu-system-x86 and busybox-static (Debian's
# packages; `.ci/run` installs them) and downloads a Debian kernel once, into
# ${JACPUZZLES_VM_CACHE:-~/.cache/jacpuzzles-vm}. KVM is used where it works, else software
# emulation (about 30 times slower: keep scripts small).
#
# Inside: /, /usr, the project and its virtualenv as on the host but read-only; tmpfs on /run
# (TMPDIR=/run/tmp, HOME=/run/home), /var/tmp and /dev/shm; no network. The script runs in a
# leaf group `session.scope`, as a login shell runs on a systemd host, with `memory` and `pids`
# handed down from the root. PATH and VIRTUAL_ENV are the caller's.
set -euo pipefail
script="$(realpath "$1")"
cache="${JACPUZZLES_VM_CACHE:-$HOME/.cache/jacpuzzles-vm}"
mkdir -p "$cache"
for tool in qemu-system-x86_64 busybox; do
  command -v "$tool" >/dev/null || { echo "boot.sh: $tool is missing: apt-get install qemu-system-x86 busybox-static" >&2; exit 3; }
done

# A Debian kernel with 9p and virtio as modules (the same every run, downloaded once).
if ! ls "$cache"/root/boot/vmlinuz-* >/dev/null 2>&1; then
  package="$(apt-cache depends linux-image-amd64 | sed -n 's/.*Depends: \(linux-image-[0-9].*-amd64\)$/\1/p' | head -1)"
  [ -n "$package" ] || { echo "boot.sh: apt-cache names no kernel package for linux-image-amd64" >&2; exit 3; }
  (cd "$cache" && rm -f ./*.deb && apt-get download -q "$package" >/dev/null 2>&1) || { echo "boot.sh: apt-get download $package failed" >&2; exit 3; }
  rm -rf "$cache/root" && dpkg-deb -x "$cache"/linux-image-*.deb "$cache/root"
fi
kernel="$(ls "$cache"/root/boot/vmlinuz-* | head -1)"
modules="$(ls -d "$cache"/root/lib/modules/* | head -1)"

# The initial RAM disk: busybox, the modules for a 9p root, and an init that mounts the host's
# root and hands over to the script.
ramdisk="$(mktemp -d)"
trap 'rm -rf "$ramdisk"' EXIT
mkdir -p "$ramdisk"/tree/bin "$ramdisk"/tree/mod "$ramdisk"/tree/newroot
cp "$(command -v busybox)" "$ramdisk"/tree/bin/busybox
# Dependencies first; which module needs which changes between kernel builds (virtio needs
# virtio_ring since 6.1.0-56), so init also makes a second pass for any that failed.
order="virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci netfs fscache 9pnet 9pnet_virtio 9p"
for module in $order; do
  found="$(find "$modules" -name "$module.ko" | head -1)"
  [ -n "$found" ] && cp "$found" "$ramdisk"/tree/mod/
done
cat > "$ramdisk"/tree/init <<EOS
#!/bin/busybox sh
b=/bin/busybox
\$b mkdir -p /proc /dev
\$b mount -t proc proc /proc
\$b mount -t devtmpfs dev /dev
for pass in 1 2; do for m in $order; do [ -f /mod/\$m.ko ] && \$b insmod /mod/\$m.ko 2>/dev/null; done; done
\$b mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=512000,cache=loose host /newroot || { echo "JACPUZZLES-VM-STATUS 4 (no 9p root)"; \$b poweroff -f; }
\$b mount -t proc proc /newroot/proc
\$b mount -t sysfs sys /newroot/sys
\$b mount -t cgroup2 none /newroot/sys/fs/cgroup
\$b mount -t devtmpfs dev /newroot/dev
\$b mkdir -p /newroot/dev/shm /newroot/dev/pts
\$b mount -t tmpfs tmp /newroot/dev/shm
\$b mount -t tmpfs tmp /newroot/var/tmp
\$b mount -t tmpfs -o size=3g run /newroot/run
exec \$b switch_root /newroot /bin/sh -c '
  mkdir -p /run/tmp /run/home
  echo "+memory +pids" > /sys/fs/cgroup/cgroup.subtree_control
  mkdir /sys/fs/cgroup/session.scope && echo \$\$ > /sys/fs/cgroup/session.scope/cgroup.procs
  cd "$PWD"
  env -i PATH="$PATH" VIRTUAL_ENV="${VIRTUAL_ENV:-}" HOME=/run/home TMPDIR=/run/tmp LANG=C.UTF-8 /bin/sh "$script"
  echo "JACPUZZLES-VM-STATUS \$?"
  /bin/busybox poweroff -f'
EOS
chmod +x "$ramdisk"/tree/init
(cd "$ramdisk"/tree && busybox find . | busybox cpio -o -H newc 2>/dev/null | gzip -1) > "$ramdisk"/initrd.gz

# KVM where the processor offers it to this machine (a /dev/kvm without vmx or svm hangs a
# guest), else emulation.
accel="tcg,thread=multi -cpu max"
if [ -w /dev/kvm ] && grep -qwE 'vmx|svm' /proc/cpuinfo; then
  accel="kvm -cpu host"
fi
log="$ramdisk/console.log"
# shellcheck disable=SC2086
qemu-system-x86_64 -accel $accel -m 6144 -smp 2 -display none -monitor none -serial stdio -no-reboot \
  -kernel "$kernel" -initrd "$ramdisk"/initrd.gz -append "console=ttyS0 quiet panic=-1" \
  -virtfs local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap </dev/null | tee "$log"
status="$(sed -n 's/.*JACPUZZLES-VM-STATUS \([0-9]*\).*/\1/p' "$log" | tail -1)"
[ -n "$status" ] || { echo "boot.sh: the VM ended without the script's status" >&2; exit 3; }
exit "$status"
