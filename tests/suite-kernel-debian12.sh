#!/usr/bin/env bash
# suite-kernel-debian12.sh - boot Debian 12's stock kernel (6.1, Landlock
# ABI 2; the linux-image-6.1.0-*-amd64 package, fetched and unpacked, never
# installed) under QEMU with TCG (tests/lib/in-vm.sh) and run
# tests/vm/debian12-checks.sh there: the default policy with no flag,
# truncation refused outside the writable roots, git/npm/pip, the self-test,
# probe-tree on the shipped examples and the kernel-dependent escape
# techniques.  `make test-kernels` runs
# it alone.  SKIP (77) when QEMU or the kernel cannot be had.
# Env: SBX_VM_FULL=1 also runs suite-landlock, probe-tree at emulated ABI 1,
# every escape technique as root and uid 65534, suite-masks and suite-trace
# (slow under TCG; its guest timeout is 90 minutes).
set -uo pipefail
cd "$(dirname "$0")/.."
B=${B:-build}
if [ -n "${SBX_IN_SANITIZE:-}" ]; then
	echo "SKIP: the kernel VM suite runs in the plain pass only (TCG is slow; the code under test is the same)"
	exit 77
fi
for f in "$B/bin/sbrun" "$B/bin/omp-sandboxed" "$B/gen/omp.sb" "$B/test-bin/probe" "$B/test-bin/ll_run" "$B/test-bin/probe_tree" "$B/test-bin/escape_probe"; do
	[ -e "$f" ] || { echo "SKIP: $f not built"; exit 77; }
done
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (9p export of /, private namespaces in the guest)"; exit 77; }
kern=$(bash tests/lib/in-vm.sh --print-kernel) || { echo "$kern"; exit 77; }
echo "kernel package: $kern"
# the real omp, when it can be had on the host (the guest has no network)
OMP_DIR=$(bash tests/lib/install-omp.sh 2>/dev/null) || OMP_DIR=""
export OMP_DIR B SBX_VM_FULL=${SBX_VM_FULL:-}
start=$(date +%s)
# the full run took more than the default 30 minutes on a loaded machine
[ "$SBX_VM_FULL" = 1 ] && export SBX_VM_TIMEOUT=${SBX_VM_TIMEOUT:-5400}
SBX_VM_ENV="B OMP_DIR SBX_VM_FULL" bash tests/lib/in-vm.sh -- bash tests/vm/debian12-checks.sh
rc=$?
echo "VM run: $(( $(date +%s) - start )) s"
[ $rc = 77 ] && exit 77
[ $rc = 0 ] || { echo "FAIL: checks on Debian 12's kernel (exit $rc)"; exit 1; }
exit 0
