#!/usr/bin/env bash
# debian12-checks.sh - run by tests/suite-kernel-debian12.sh inside the VM
# (tests/lib/in-vm.sh) on Debian 12's stock kernel (Landlock ABI 2), as root,
# with the release binaries of $B and no flag: the default policy runs,
# truncation of a readable file outside the writable roots is refused (as
# root and uid 65534), real tools work, the self-test passes, and the kernel
# suites (probe-tree on the shipped examples, escape) pass.
# SBX_VM_FULL=1 adds suite-landlock, probe-tree at emulated ABI 1, every
# escape technique as root and uid 65534, suite-masks and suite-trace (slow
# under TCG: well over 30 minutes on a loaded 2-core machine).
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
B=${B:-build}
case $B in /*) ;; *) B=$ROOT/$B ;; esac
SBRUN=$B/bin/sbrun
PROFILE=$B/gen/omp.sb
PROBE=$B/test-bin/probe
fails=0
pass() { echo "PASS: [debian12] $*"; }
fail() { echo "FAIL: [debian12] $*"; fails=$((fails + 1)); }
tag() { sed -u -E 's/^(PASS|FAIL|SKIP): /\1: [debian12] /'; }

echo "kernel: $(uname -r); LSMs: $(cat /sys/kernel/security/lsm 2>/dev/null)"
doc=$("$SBRUN" --doctor 2>&1)
abi=$(sed -n 's/^landlock: kernel ABI \([0-9]*\).*/\1/p' <<<"$doc")
if [ -n "$abi" ] && [ "$abi" -lt 3 ] && grep -q '^status: usable' <<<"$doc" &&
	grep -q '^seccomp truncation guard: on' <<<"$doc"; then
	pass "sbrun --doctor: kernel Landlock ABI $abi, usable, truncation guard on"
else
	fail "sbrun --doctor on $(uname -r): $(head -3 <<<"$doc")"
fi
grep -q '\[LOST\] signals to processes outside' <<<"$doc" && grep -q '\[LOST\] abstract UNIX sockets' <<<"$doc" &&
	pass "sbrun --doctor reports the ABI 6 losses (signals, abstract sockets)" ||
	fail "sbrun --doctor does not report the ABI 6 losses"

# ---- the default policy, no flag; truncation outside the writable roots ----
for who in root nobody; do
	as=()
	[ $who = nobody ] && as=(--as-nobody)
	out=$(bash tests/lib/fakehome.sh "${as[@]}" -- /bin/bash -c '
		B=$1 PROBE=$2 SBRUN=$3 PROFILE=$4
		mkdir -p "$HOME/proj" && cd "$HOME/proj" || exit 9
		# created before the launch, owned by the user, readable, outside the roots
		ro=/var/lib/sbx-trunc-$(id -u)/notes.txt
		mkdir -p "${ro%/*}" 2>/dev/null || ro=/var/tmp/sbx-trunc-$(id -u).txt
		echo "keep me" >"$ro"
		run() { /usr/bin/env -i PATH=/usr/bin:/bin HOME="$HOME" TERM=dumb "$SBRUN" "$PROFILE" -- "$@"; }
		run /bin/true && echo "DEFAULT-RUNS"
		run /bin/cat "$ro" | grep -q "keep me" && echo "READABLE"
		for op in truncate trunc-ro trunc-acc3 trunc-openat2; do
			r=$(run "$PROBE" $op "$ro" 2>/dev/null)
			echo "TRUNC $op $r $(cat "$ro")"
		done
		run /usr/bin/truncate -s 0 "$ro" 2>/dev/null; echo "TRUNC coreutils rc=$? $(cat "$ro")"
		run /usr/bin/python3 -c "import os,sys; os.truncate(sys.argv[1], 0)" "$ro" 2>/dev/null
		echo "TRUNC python rc=$? $(cat "$ro")"
		echo data >t.txt && run /usr/bin/truncate -s 0 t.txt && [ ! -s t.txt ] && echo "WORKSPACE-TRUNC-OK"
	' x "$B" "$PROBE" "$SBRUN" "$PROFILE" 2>&1)
	grep -q '^DEFAULT-RUNS' <<<"$out" && pass "[$who] the default policy runs with no flag" ||
		fail "[$who] the default policy does not run: $(head -5 <<<"$out")"
	grep -q '^READABLE' <<<"$out" && pass "[$who] the file outside the roots is readable (control)" ||
		fail "[$who] control: the file outside the roots is not readable"
	n=$(grep -c '^TRUNC ' <<<"$out")
	bad=$(grep '^TRUNC ' <<<"$out" | grep -v 'keep me$')
	if [ "$n" = 6 ] && [ -z "$bad" ] && ! grep -q '^TRUNC [a-z0-9-]* OK' <<<"$out"; then
		pass "[$who] truncation of a readable file outside the roots refused 6 ways (truncate(2), O_RDONLY|O_TRUNC, mode 3|O_TRUNC, openat2, truncate(1), os.truncate)"
	else
		fail "[$who] truncation: $(grep '^TRUNC' <<<"$out" | tr '\n' ';')"
	fi
	grep -q '^WORKSPACE-TRUNC-OK' <<<"$out" && pass "[$who] truncate(1) in the workspace works" ||
		fail "[$who] truncate(1) in the workspace failed"
done

# ---- real tools ----
out=$(TSBRUN="$SBRUN" PROFILE="$PROFILE" bash tests/lib/fakehome.sh -- bash "$ROOT/tests/lib/tool-workload.sh" 2>&1)
for w in git-commit git-gc git-mv git-clone npm-pack npm-install pip-install pip-import; do
	t=${w%%-*}; [ $t = pip ] && t=python3
	if grep -q "^WORKLOAD-SKIP $t:" <<<"$out"; then echo "SKIP: [debian12] $w: $t not installed"; continue; fi
	grep -q "^WORKLOAD-OK $w\$" <<<"$out" && pass "$w works under the default policy" ||
		fail "$w: $(grep "$w" <<<"$out")"
done

# ---- self-test ----
st=$(bash tests/lib/fakehome.sh -- /bin/bash -c 'mkdir -p "$HOME/project" && cd "$HOME/project" &&
	/usr/bin/env -i PATH=${OMP_DIR:+$OMP_DIR:}/usr/bin:/bin HOME="$HOME" "$1" --self-test' x "$B/bin/omp-sandboxed" 2>&1)
rc=$?
if [ $rc = 0 ] && ! grep -q '^FAIL' <<<"$st" && grep -q '^PASS' <<<"$st"; then
	pass "omp-sandboxed --self-test: $(grep -c '^PASS' <<<"$st") checks passed, $(grep -c '^SKIP' <<<"$st") skipped"
else
	fail "omp-sandboxed --self-test rc $rc: $(grep -v '^PASS' <<<"$st" | head -5)"
fi

# ---- the kernel suites (relative B, as the suites expect) ----
# Under TCG every launch is slow: by default probe-tree on the shipped
# examples and the escape techniques that depend on the kernel's ABI plus
# the core path-resolution ones, as root; SBX_VM_FULL=1 runs suite-landlock,
# probe-tree at emulated ABI 1 too and every escape technique as root and
# uid 65534.
cd "$ROOT"
RB=${B#$ROOT/}
if [ "${SBX_VM_FULL:-}" = 1 ]; then
	B=$RB bash tests/suite-landlock.sh 2>&1 | grep -E '^(PASS|FAIL|SKIP)' | tag
	[ "${PIPESTATUS[0]}" = 0 ] || fails=$((fails + 1))
	pt_abis=1 ids="root user" only=""
else
	pt_abis="" ids="root" only="^(01|04|08|09|11|16|21|22|24|25|30|34)-"
fi
B=$RB SB_PT_EXAMPLES_ONLY=1 SB_TEST_ABIS="$pt_abis" bash tests/suite-probe-tree.sh 2>&1 | grep -E '^(PASS|FAIL|SKIP)' | tag
[ "${PIPESTATUS[0]}" = 0 ] || fails=$((fails + 1))
B=$RB ESCAPE_IDS="$ids" ESCAPE_ONLY="$only" bash tests/suite-escape.sh 2>&1 | grep -E '^(PASS|FAIL|SKIP|escape)|^    \|' | tag
[ "${PIPESTATUS[0]}" = 0 ] || fails=$((fails + 1))
# the masking backend and the tracer at the kernel's own ABI 2
if [ "${SBX_VM_FULL:-}" = 1 ]; then
	for s in masks trace; do
		B=$RB bash tests/suite-$s.sh 2>&1 | grep -E '^(PASS|FAIL|SKIP)|^    \|' | tag
		r=${PIPESTATUS[0]}
		[ "$r" = 0 ] || [ "$r" = 77 ] || fails=$((fails + 1))
	done
fi
echo "debian12 checks: $fails failed"
[ $fails = 0 ]
