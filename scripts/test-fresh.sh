#!/bin/bash
# test-fresh.sh [SUITE]: prove the README's two commands on a bare Debian.
# Makes a throwaway Debian root with debootstrap (minbase variant, from
# deb.debian.org; SUITE bookworm (12, default) or trixie (13)), puts a fresh
# clone of this repository's HEAD in it, and runs, in a private mount
# namespace whose root it becomes (pivot_root; /proc, /sys, /dev, /dev/pts
# bound; the kernel is the host's, so the Landlock suites test it for real):
#     ./bootstrap.sh run      then      ./bootstrap.sh test
# with nothing installed first (no make, no compiler, no npm, empty /home).
# Prints each step's time; exit 0 when both commands pass.  Root only.
# Knobs: FRESH_KEEP=1 keeps the root (its path is printed);
#        FRESH_STEPS="run" runs only the first command.
# The root is removed afterwards, outside the namespace, so the bind
# mounts (gone with the namespace) are never followed.
set -euo pipefail
suite=${1:-${SUITE:-bookworm}}
mirror=${FRESH_MIRROR:-http://deb.debian.org/debian}
steps=${FRESH_STEPS:-run test}
src=$(cd "$(dirname "$0")/.." && pwd)
[ "$(id -u)" = 0 ] || { echo "test-fresh: needs root (debootstrap, chroot)" >&2; exit 77; }
if ! command -v debootstrap > /dev/null; then
	echo "test-fresh: installing debootstrap" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap > /dev/null
fi
root=$(mktemp -d /var/tmp/sbx-fresh.XXXXXX)
# mktemp makes it 0700; a real root is 0755, and the suites run as uid 65534 too
chmod 0755 "$root"
cleanup() {
	if [ "${FRESH_KEEP:-}" = 1 ]; then
		echo "test-fresh: kept $root"
	else
		rm -rf --one-file-system "$root"
	fi
}
trap cleanup EXIT
t0=$(date +%s)
echo "test-fresh: debootstrap --variant=minbase $suite $root $mirror"
debootstrap --variant=minbase "$suite" "$root" "$mirror" > "$root.debootstrap.log" 2>&1 ||
	{ tail -20 "$root.debootstrap.log"; rm -f "$root.debootstrap.log"; exit 1; }
rm -f "$root.debootstrap.log"
t1=$(date +%s)
echo "test-fresh: debootstrap took $((t1 - t0)) s"
for tool in make gcc cc flex bison npm; do
	if chroot "$root" /bin/sh -c "command -v $tool" > /dev/null 2>&1; then
		echo "test-fresh: the fresh root already has $tool: not bare" >&2
		exit 1
	fi
done
[ -z "$(ls -A "$root/home")" ] || { echo "test-fresh: /home is not empty" >&2; exit 1; }
git clone -q --no-hardlinks "$src" "$root/src/omp-sandbox"
echo "test-fresh: fresh clone of $(git -C "$src" rev-parse --short HEAD) in /src/omp-sandbox"
cp /etc/resolv.conf "$root/etc/resolv.conf"
# A network behind a TLS-intercepting proxy: the host's local CAs go where
# Debian's ca-certificates picks them up when the bootstrap installs it (npm
# needs them); nothing else of the host enters the root.
if [ -d /usr/local/share/ca-certificates ]; then
	mkdir -p "$root/usr/local/share/ca-certificates"
	cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/" 2> /dev/null || true
fi

# In a private mount namespace: the mounts vanish with it, even on failure.
rc=0
unshare -m --propagation private /bin/bash -euo pipefail -c '
	root=$1 steps=$2
	# the root must be a mount point: inside the chroot, `unshare -m
	# --propagation private` (tests/lib/fakehome.sh) changes the
	# propagation of "/", which fails (EINVAL) on a plain directory
	mount --bind "$root" "$root"
	mount -t proc proc "$root/proc"
	mount --rbind /sys "$root/sys"
	mount --rbind /dev "$root/dev"
	mount -t tmpfs -o mode=1777 tmpfs "$root/tmp"
	mount -t tmpfs -o mode=0755 tmpfs "$root/run"
	# pivot_root, not a bare chroot: the kernel refuses a user namespace
	# (EPERM) to a process whose root is not its mount namespace'"'"'s root,
	# so sbrun'"'"'s masks would not run for an unprivileged user
	mkdir -p "$root/.old-root"
	cd "$root"
	pivot_root . .old-root
	umount -l /.old-root
	rmdir /.old-root
	root=/
	rc=0
	for step in $steps; do
		s=$(date +%s)
		echo "test-fresh: ./bootstrap.sh $step"
		if chroot / /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
			TERM=dumb LANG=C.UTF-8 /bin/sh -c "cd /src/omp-sandbox && ./bootstrap.sh $step"; then
			echo "test-fresh: ./bootstrap.sh $step passed in $(( $(date +%s) - s )) s"
		else
			rc=$?
			echo "test-fresh: ./bootstrap.sh $step FAILED (exit $rc) after $(( $(date +%s) - s )) s"
			break
		fi
	done
	exit $rc
' test-fresh "$root" "$steps" || rc=$?
echo "test-fresh: total $(( $(date +%s) - t0 )) s"
exit $rc
