#!/usr/bin/env bash
# in-vm.sh [--print-kernel] [--] CMD [ARGS...]
#
# Run CMD inside a QEMU guest booting Debian 12's stock kernel (the
# linux-image-6.1.0-*-amd64 package from Debian's archive: downloaded with
# apt-get download, unpacked with dpkg-deb -x, never installed), from the
# current directory, as root, and exit with CMD's status.
#
# The guest sees the host's / read-only over 9p under a tmpfs overlay
# (writes stay in the guest), so host-built binaries run unchanged; its own
# /proc, /sys, /dev, /tmp and /run.  Its init is tests/vm/vm_init.c (static).
# TCG (-accel tcg -cpu max): a stock kernel is unusably slow on this
# machine's paravirtual KVM.  No network device.
#
# Env:
#   SBX_VM_KERNEL_PKG   the package (default: the newest linux-image-6.1.0-N-amd64
#                       apt knows, else the newest already cached)
#   SBX_VM_CACHE        download/unpack cache (default: <repo>/.cache/kernels,
#                       git-ignored)
#   SBX_VM_ENV          names of variables to pass into the guest (B, SB_TEST_ABIS,
#                       ESCAPE_ONLY, ... ; default "B SBX_SKIP_SANITIZE")
#   SBX_VM_MODULES      extra module names to load (dependencies resolved)
#   SBX_VM_MEM          guest memory in MB (default 1024)
#   SBX_VM_TIMEOUT      seconds before the guest is killed (default 1800)
# Exit: CMD's status; 77 (with "SKIP: reason") when QEMU or the kernel cannot
# be had; 1 when the guest did not report an exit status.
set -uo pipefail
HERE=$(cd "$(dirname "$0")/../.." && pwd)
CACHE=${SBX_VM_CACHE:-$HERE/.cache/kernels}
QEMU=/usr/bin/qemu-system-x86_64
skip() { echo "SKIP: $*"; exit 77; }

print_kernel=0
[ "${1:-}" = --print-kernel ] && { print_kernel=1; shift; }
[ "${1:-}" = -- ] && shift
[ $# -gt 0 ] || [ $print_kernel = 1 ] || { echo "usage: in-vm.sh [--print-kernel] [--] CMD [ARGS...]" >&2; exit 2; }
[ "$(uname -m)" = x86_64 ] || skip "the VM runner boots an amd64 kernel; this is $(uname -m)"
[ -x "$QEMU" ] || skip "qemu-system-x86_64 missing (Debian package qemu-system-x86; scripts/deps.sh)"
command -v cpio >/dev/null || skip "cpio missing (scripts/deps.sh)"
mkdir -p "$CACHE" || skip "cannot create $CACHE"

# ---- the kernel package: cached, or fetched from Debian's archive ----
pkg=${SBX_VM_KERNEL_PKG:-}
if [ -z "$pkg" ]; then
	pkg=$(apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-amd64$' 2>/dev/null |
		awk '{print $1}' | sort -V | tail -1)
fi
deb=$(ls "$CACHE"/"${pkg:-linux-image-6.1.0-*-amd64}"_*_amd64.deb 2>/dev/null | sort -V | tail -1)
if [ -z "$deb" ] && [ -n "$pkg" ]; then
	(cd "$CACHE" && apt-get download "$pkg" >"$CACHE/download.log" 2>&1)
	deb=$(ls "$CACHE"/"$pkg"_*_amd64.deb 2>/dev/null | tail -1)
fi
[ -n "$deb" ] || skip "no Debian 12 kernel package cached in $CACHE and none could be downloaded (apt-get download ${pkg:-linux-image-6.1.0-N-amd64}; see $CACHE/download.log)"
kdir=$CACHE/$(basename "$deb" .deb)
if [ ! -e "$kdir/.unpacked" ]; then
	rm -rf "$kdir"
	dpkg-deb -x "$deb" "$kdir" || skip "dpkg-deb -x $deb failed"
	touch "$kdir/.unpacked"
fi
vmlinuz=$(ls "$kdir"/boot/vmlinuz-* 2>/dev/null | head -1)
[ -n "$vmlinuz" ] || skip "no vmlinuz in $deb"
kver=${vmlinuz##*/vmlinuz-}
if [ $print_kernel = 1 ]; then echo "$(basename "$deb") $kver"; exit 0; fi
moddir=$kdir/lib/modules/$kver/kernel

# ---- the initramfs: static init + modules in dependency order ----
initrd=$kdir/initrd-sbx.cpio
init_src=$HERE/tests/vm/vm_init.c
mods="virtio_pci 9pnet_virtio 9p overlay ${SBX_VM_MODULES:-}"
stamp=$(echo "$mods" | md5sum | cut -c1-12)
if [ ! -e "$initrd" ] || [ "$init_src" -nt "$initrd" ] || [ "$(cat "$initrd.mods" 2>/dev/null)" != "$stamp" ]; then
	work=$(mktemp -d "$CACHE/initrd.XXXXXX")
	mkdir -p "$work/modules" "$work/proc" "$work/sys" "$work/dev" "$work/host" "$work/rw" "$work/newroot"
	cc -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -static -o "$work/init" "$init_src" ||
		{ rm -rf "$work"; skip "cannot link a static init (libc6-dev's libc.a)"; }
	declare -A seen=()
	order=()
	add_mod() {  # depth-first: dependencies before the module
		local m=$1 f d
		[ -n "${seen[$m]:-}" ] && return 0
		seen[$m]=1
		f=$(find "$moddir" -name "$m.ko" | head -1)
		[ -n "$f" ] || { echo "in-vm.sh: module $m not in $kver" >&2; return 1; }
		for d in $(tr '\0' '\n' <"$f" | sed -n 's/^depends=//p' | tr ',' ' '); do
			add_mod "$d" || return 1
		done
		cp "$f" "$work/modules/$m.ko"
		order+=("$m.ko")
	}
	for m in $mods; do add_mod "$m" || { rm -rf "$work"; skip "kernel module $m missing"; }; done
	printf '%s\n' "${order[@]}" >"$work/modules/order"
	(cd "$work" && find . -mindepth 1 | cpio -o -H newc --quiet) >"$initrd.tmp" && mv "$initrd.tmp" "$initrd"
	echo "$stamp" >"$initrd.mods"
	rm -rf "$work"
fi

# ---- the run ----
run=$(mktemp -d "$CACHE/run.XXXXXX")
trap 'rm -rf "$run"' EXIT
{
	echo "cd $(printf '%q' "$PWD") || exit 1"
	for v in ${SBX_VM_ENV:-B SBX_SKIP_SANITIZE}; do
		[ -n "${!v+x}" ] && echo "export $v=$(printf '%q' "${!v}")"
	done
	printf 'exec'; printf ' %q' "$@"; echo
} >"$run/cmd.sh"
out=$run/console
timeout "${SBX_VM_TIMEOUT:-1800}" "$QEMU" -accel tcg -cpu max -smp 1 -m "${SBX_VM_MEM:-1024}" \
	-nodefaults -no-reboot -display none -serial stdio -net none \
	-kernel "$vmlinuz" -initrd "$initrd" \
	-append "console=ttyS0 quiet loglevel=1 panic=-1 sbx.cmd=$run/cmd.sh" \
	-fsdev local,id=hostroot,path=/,readonly=on,security_model=none,multidevs=remap \
	-device virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot </dev/null | sed -u 's/\r$//' | tee "$out"
qrc=${PIPESTATUS[0]}
rc=$(sed -n 's/^SBX-VM-EXIT: \([0-9]*\)$/\1/p' "$out" | tail -1)
if [ -z "$rc" ]; then
	echo "in-vm.sh: the guest reported no exit status (qemu exit $qrc)" >&2
	grep -q '^SBX-VM-INIT-FAIL' "$out" && echo "in-vm.sh: $(grep -m1 '^SBX-VM-INIT-FAIL' "$out")" >&2
	exit 1
fi
exit "$rc"
