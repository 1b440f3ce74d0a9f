#!/usr/bin/env bash
# suite-terminal.sh: a launch whose standard descriptors are a console
# outside /dev/pts (a virtual or serial console; /dev/console in a VM) gets
# that terminal with /dev/tty's rights (sb_linux_opts.terminals,
# runtime/linux/ll_plan.c), under both mechanisms, and no denial is traced
# for it; without the terminal on a descriptor there is no such rule.
# Uses the host's /dev/console when it is a terminal: it is opened without
# reading or writing (probe read/write open and close a device only).
# Exit 0 pass, 77 skip, 1 fail.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-build}
case $B in /*) ;; *) B=$root/$B ;; esac
if [ "${SBX_SUITE_INSIDE:-}" != 1 ]; then
	exec /usr/bin/env SBX_SUITE_INSIDE=1 B="$B" "$root/tests/lib/fakehome.sh" -- \
		/bin/bash "$root/tests/suite-terminal.sh"
fi
SB=$B/bin/sbrun
PROBE=$B/test-bin/probe
PROFILE=$B/gen/omp.sb
for f in "$SB" "$PROBE" "$PROFILE"; do
	[ -e "$f" ] || { echo "SKIP: $f not built"; exit 77; }
done
CON=/dev/console
if ! python3 -c 'import os, sys; fd = os.open(sys.argv[1], os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK); sys.exit(0 if os.isatty(fd) and os.ttyname(fd) == sys.argv[1] else 1)' "$CON" 2>/dev/null; then
	echo "SKIP: $CON is not a terminal that can be opened here"
	exit 77
fi
fails=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
mkdir -p "$HOME/proj" "$HOME/.omp" && cd "$HOME/proj" || exit 1
run() { /usr/bin/env -i PATH=/usr/bin:/bin HOME="$HOME" "$SB" "$@"; }

plan_con=$(run --plan "$PROFILE" <"$CON" 2>&1)
plan_none=$(run --plan "$PROFILE" </dev/null 2>&1)
if grep -q "^rule terminal $CON write_file|read_file|ioctl_dev" <<<"$plan_con" &&
	! grep -q "$CON" <<<"$plan_none"; then
	pass "--plan: $CON on stdin gets a terminal rule (read, write, ioctl), and none without it"
else
	fail "--plan terminal rule: $(grep -m2 "$CON" <<<"$plan_con") / without: $(grep -m1 "$CON" <<<"$plan_none")"
fi
for mech in complement masks; do
	for op in read write; do
		with=$(run --mechanism $mech "$PROFILE" -- "$PROBE" $op "$CON" <"$CON" 2>/dev/null)
		without=$(run --mechanism $mech "$PROFILE" -- "$PROBE" $op "$CON" </dev/null 2>/dev/null)
		if [ "$with" = OK ] && [ "$without" != OK ]; then
			pass "[$mech] open($op) of $CON: allowed with it on stdin, $without without"
		else
			fail "[$mech] open($op) of $CON: with it on stdin '$with', without '$without'"
		fi
	done
done
# another console name that is no descriptor of the launch stays closed
for t in /dev/tty1 /dev/ttyS0; do
	[ -c "$t" ] || continue
	got=$(run --mechanism complement "$PROFILE" -- "$PROBE" write "$t" <"$CON" 2>/dev/null)
	[ "$got" != OK ] && pass "[complement] $t (not a descriptor of the launch) stays closed ($got)" ||
		fail "[complement] $t opened although only $CON is the launch's terminal"
	break
done
# traced: reopening the console by name is no denial
tr=$(run --trace "$PROFILE" -- "$PROBE" write "$CON" <"$CON" 2>&1 >/dev/null)
tr_none=$(run --trace "$PROFILE" -- "$PROBE" write "$CON" </dev/null 2>&1 >/dev/null)
if ! grep -q "denied.*$CON" <<<"$tr" && grep -q "trace summary" <<<"$tr" &&
	grep -q "denied write $CON" <<<"$tr_none"; then
	pass "--trace: opening $CON, the launch's terminal, is no denial (and is one when it is not the terminal)"
else
	fail "--trace: with it: $(grep -m2 -e denied -e summary <<<"$tr") / without: $(grep -m1 denied <<<"$tr_none")"
fi
echo "terminal: $fails failed"
[ $fails = 0 ]
