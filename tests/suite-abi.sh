#!/usr/bin/env bash
# suite-abi.sh - the kernel suites at emulated Landlock ABIs 1, 2, 3, 4 and 6
# on this (newer) kernel, through the test builds' SB_TEST_LL_ABI=N knob
# (docs/linux.md, "Testing older ABIs").  The kernel's own ABI is what the
# ordinary suites run at; suite-landlock.sh covers truncation at every ABI
# and suite-probe-tree.sh the shipped examples at 1, 2, 3, 4 and 6.
# Here, chosen to stay quick:
#   - the escape suite: every technique at ABI 1 and 2 (root); the ones whose
#     outcome depends on the ABI (rename/link, signals, abstract sockets,
#     truncation, devices) at 3, 4, 6 (root) and at 1 as uid 65534;
#   - the self-test (sbrun --self-test, throwaway home) at every N;
#   - suite-masks, unchanged, at the lowest ABI asked for;
#   - suite-trace's root pass, unchanged, at ABI 1 and 2;
#   - git, npm and pip doing real work at ABI 1 (no REFER), with the
#     documented breakages (git mv across directories; npm 9's cache: EXDEV)
#     asserted.
# Env: SB_TEST_ABIS="1 2" picks the ABIs.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
B=${B:-build}
case $B in /*) ;; *) B=$ROOT/$B ;; esac
TSBRUN=$B/test-bin/sbrun
PROFILE=$B/gen/omp.sb
LLRUN=$B/test-bin/ll_run
fails=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

for f in "$TSBRUN" "$PROFILE" "$LLRUN"; do
	[ -e "$f" ] || { echo "SKIP: $f not built"; exit 77; }
done
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (private mount namespaces)"; exit 77; }
# `make all` does not rebuild the test builds: a stale one would run old
# code and fail (or pass) for reasons that are not in the tree.  `make -q`
# answers 1 exactly when a target is out of date.
stale=""
for f in "$TSBRUN" "$B/test-bin/omp-sandboxed" "$LLRUN"; do
	make -s -q -C "$ROOT" B="$B" "$f" >/dev/null 2>&1
	[ $? = 1 ] && stale="$stale $f"
done
if [ -n "$stale" ]; then
	echo "FAIL: test builds older than their sources:$stale (make$stale)"
	exit 1
fi
kabi=$("$LLRUN" --doctor 2>/dev/null | sed -n 's/^landlock: kernel ABI \([0-9]*\).*/\1/p')
if [ -z "$kabi" ]; then
	[ "${SBRUN_TEST_REQUIRE_LANDLOCK:-}" = 1 ] && { echo "FAIL: Landlock unavailable"; exit 1; }
	echo "SKIP: Landlock unavailable"; exit 77
fi
# the sanitizer pass (make test-sanitize) runs the lowest ABI only
if [ -n "${SBX_IN_SANITIZE:-}" ]; then ABIS=${SB_TEST_ABIS:-1}; else ABIS=${SB_TEST_ABIS:-1 2 3 4 6}; fi

for n in $ABIS; do
	if [ "$n" -ge "$kabi" ]; then
		echo "SKIP: ABI $n: not below the kernel's ABI $kabi (the ordinary suites run there)"
		continue
	fi
	# ---- --doctor / --plan state what this ABI enforces ----
	doc=$("$LLRUN" --clamp-abi "$n" --doctor 2>&1)
	if grep -q "^enforcement at Landlock ABI $n:" <<<"$doc" && grep -q "^status: usable" <<<"$doc"; then
		pass "ABI $n: --doctor usable, with the per-ABI enforcement table"
	else
		fail "ABI $n: --doctor: $(head -3 <<<"$doc")"
	fi
	lost=$(grep -c '\[LOST\]' <<<"$doc")
	want=$(( (n < 2) + (n < 4) + (n < 5) + 2 * (n < 6) + (n < 7) + 1 ))
	[ "$lost" = "$want" ] && pass "ABI $n: --doctor lists $lost losses" ||
		fail "ABI $n: --doctor lists $lost losses, want $want"
	# ---- escape techniques ----
	# the techniques whose outcome depends on the ABI: rename/link (REFER),
	# signals and abstract sockets (scopes), devices, truncation
	dep="^(09|11|16|21|24|30|34)-"
	runs=("root:$dep")
	[ "$n" -le 2 ] && runs=("root:")
	[ "$n" = 1 ] && runs+=("user:$dep")
	for r in "${runs[@]}"; do
		id=${r%%:*} only=${r#*:}
		out=$(ESCAPE_ABI=$n ESCAPE_IDS="$id" ESCAPE_ONLY="$only" B="$B" bash tests/suite-escape.sh 2>&1)
		np=$(grep -c '^PASS' <<<"$out"); nf=$(grep -c '^FAIL' <<<"$out")
		if [ "$nf" = 0 ] && [ "$np" -gt 1 ]; then
			pass "ABI $n: escape techniques [$id] (${only:+the ABI-dependent ones}${only:-all}): $np passed"
		else
			fail "ABI $n: escape [$id]: $nf failed"
			grep -A12 '^FAIL' <<<"$out" | head -40
		fi
	done
	# ---- self-test ----
	st=$(bash tests/lib/fakehome.sh -- /bin/bash -c '
		mkdir -p "$HOME/project" && cd "$HOME/project" &&
		/usr/bin/env -i PATH=/usr/bin:/bin HOME="$HOME" SB_TEST_LL_ABI='"$n"' "$1" --self-test "$2"' \
		x "$TSBRUN" "$PROFILE" 2>&1)
	rc=$?
	if [ $rc = 0 ] && ! grep -q '^FAIL' <<<"$st" && grep -q '^PASS' <<<"$st"; then
		pass "ABI $n: sbrun --self-test ($(grep -c '^PASS' <<<"$st") checks)"
	else
		fail "ABI $n: self-test rc $rc: $(grep -v '^PASS' <<<"$st" | head -5)"
	fi
done

# ---- the masking backend and the tracer through launchers ----
# Their own suites, unchanged, through launchers that set the knob: $W/bin
# holds sbrun and omp-sandboxed scripts that exec the test builds with
# SB_TEST_LL_ABI=N (the suites clear the environment of what they launch,
# the scripts put the knob back); everything else links to $B.  Kept below
# $B: outside every writable root, readable by uid 65534.  ABI 2 itself runs
# on Debian 12's kernel (suite-kernel-debian12.sh).
# wrapped_suite N SUITE LABEL [VAR=VALUE...]: run tests/suite-SUITE.sh at ABI N
wrapped_suite() {
	local n=$1 s=$2 label=$3 W out rc np nf t f d
	shift 3
	W=$(mktemp -d "$B/abi-wrap.XXXXXX") && chmod 0755 "$W" &&
		mkdir -p "$W/bin" "$W/test-bin" && ln -s "$B/gen" "$W/gen" || { fail "ABI $n: wrapper dir"; return; }
	for f in "$B"/test-bin/* "$B"/bin/*; do
		d=${f%/*}; ln -s "$f" "$W/${d##*/}/${f##*/}"
	done
	for t in sbrun omp-sandboxed; do
		rm -f "$W/bin/$t"
		printf '#!/bin/sh\nSB_TEST_LL_ABI=%s exec %s "$@"\n' "$n" "$B/test-bin/$t" >"$W/bin/$t"
		chmod 0755 "$W/bin/$t"
	done
	out=$(/usr/bin/env "$@" B="$W" bash tests/suite-$s.sh 2>&1); rc=$?
	np=$(grep -c '^PASS' <<<"$out"); nf=$(grep -c '^FAIL' <<<"$out")
	if [ $rc = 77 ]; then
		echo "SKIP: ABI $n: suite-$s: $(grep -m1 '^SKIP' <<<"$out")"
	elif [ $rc = 0 ] && [ "$nf" = 0 ] && [ "$np" -gt 0 ] &&
		grep -q "effective ABI $n (test clamp)" <<<"$("$W/bin/sbrun" --plan "$B/gen/omp.sb" 2>&1 | head -1)"; then
		pass "ABI $n: suite-$s ($label): $np passed"
	else
		fail "ABI $n: suite-$s: rc $rc, $nf failed"
		grep -A8 '^FAIL' <<<"$out" | head -30
	fi
	rm -rf "$W"
}
low=$(tr ' ' '\n' <<<"$ABIS" | grep . | sort -n | head -1)
if [ -n "$low" ] && [ "$low" -lt "$kabi" ] && [ -z "${SBX_ABI_NO_MASKS_TRACE:-}" ]; then
	wrapped_suite "$low" masks "root and uid 65534"
	# the tracer's root pass at 1 and 2 (the guard answers truncation there)
	for n in $ABIS; do
		[ "$n" -le 2 ] && [ "$n" -lt "$kabi" ] && wrapped_suite "$n" trace "root" SBX_TRACE_ROOT_ONLY=1
	done
fi

# ---- real tools at ABI 1 (no REFER) ----
if [[ " $ABIS " == *" 1 "* ]] && [ "$kabi" -gt 1 ]; then
	out=$(SB_TEST_LL_ABI=1 TSBRUN="$TSBRUN" PROFILE="$PROFILE" bash tests/lib/fakehome.sh -- \
		bash "$ROOT/tests/lib/tool-workload.sh" 2>&1)
	# npm 9 (Debian 12's) hard-links its cache into place with no fallback:
	# EXDEV at ABI 1, as --doctor says; npm 10 and newer copy and work
	npmv=$(sed -n 's/^WORKLOAD-NPM-VERSION \([0-9]*\).*/\1/p' <<<"$out")
	for w in git-commit git-clone git-gc npm-pack npm-install pip-install pip-import; do
		t=${w%%-*}; [ $t = pip ] && t=python3
		if grep -q "^WORKLOAD-SKIP $t:" <<<"$out"; then echo "SKIP: ABI 1: $w: $t not installed"; continue; fi
		if [ $t = npm ] && [ -n "$npmv" ] && [ "$npmv" -lt 10 ]; then
			if grep -q "^WORKLOAD-EXDEV $w\$" <<<"$out" &&
				grep -q "npm 9 (Debian 12's npm 9.2.0) fails" <<<"$("$LLRUN" --clamp-abi 1 --doctor 2>&1)"; then
				pass "ABI 1: $w with npm $npmv fails with EXDEV, as --doctor reports (npm 10+ works)"
			else
				fail "ABI 1: $w with npm $npmv: the documented EXDEV did not show"
				grep "$w" <<<"$out"
			fi
			continue
		fi
		grep -q "^WORKLOAD-OK $w\$" <<<"$out" && pass "ABI 1: $w works${npmv:+ (npm $npmv)}" ||
			{ fail "ABI 1: $w"; grep -v '^WORKLOAD' <<<"$out" | tail -5; }
	done
	if grep -q "^WORKLOAD-SKIP git:" <<<"$out"; then
		echo "SKIP: ABI 1: git mv: git not installed"
	elif grep -q "^WORKLOAD-EXDEV git-mv\$" <<<"$out"; then
		pass "ABI 1: git mv across directories fails with EXDEV (reported by --doctor)"
	else
		fail "ABI 1: git mv across directories: the documented EXDEV did not show"
	fi
fi
[ $fails = 0 ]
