#!/usr/bin/env bash
# suite-trace-sound.sh - tracing is never weaker than the untraced sandbox
# (issue 25).  Every refusal the untraced sandbox makes (socket() under
# OMP_SANDBOX_NETWORK=off, AF_UNIX among them; io_uring_setup; keyctl,
# add_key, request_key; TIOCSTI; below ABI 3 truncate(2) and a read-only
# O_TRUNC open; the write gate's refusal of .git/hooks/pre-commit in the
# writable workspace) is made by tests/helpers/sound_probe.c
#   a. from the command itself,
#   b. from a detached process that outlives the supervisors
#      (OMP_SANDBOX_KEEP_BACKGROUND=1, after they have exited),
#   c. from one that sends SIGKILL to its supervisors first (where the
#      policy lets it signal: at ABI 6+ only those inside the domain),
# each time again under a seccomp listener of its own answering CONTINUE
# (refused: EBUSY), at emulated ABI 1, 2, 5 and 7, as root and uid 65534,
# traced and not.  Passes when no traced outcome differs from the untraced
# one of the same variant and none of them is a success.  SIGSTOP: at the
# kernel's ABI, as root only (a stopped gate holds its calls: 3 s each).
# Runs in a throwaway home (tests/lib/fakehome.sh).  Exit 0 pass, 77 skip.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-build}
case $B in /*) ;; *) B=$root/$B ;; esac
# Under the sanitizer run (suite-sanitize.sh) LeakSanitizer cannot stop the
# world in a launcher whose tree outlived or killed its supervisors ("does
# not work under ptrace": /proc/PID/task unreadable) and aborts it at exit;
# the address and UB checks stay on.
# (passed through the runs' env -i)
san_env=()
if [ -n "${SBX_IN_SANITIZE:-}" ]; then
	o=${ASAN_OPTIONS:-detect_leaks=0}
	# the probe is a sanitizer build too: into the sandbox's clean
	# environment as well
	san_env=("ASAN_OPTIONS=${o//detect_leaks=1/detect_leaks=0}" OMP_SANDBOX_PASS_ENV=ASAN_OPTIONS)
	[ -n "${UBSAN_OPTIONS:-}" ] && san_env+=("UBSAN_OPTIONS=$UBSAN_OPTIONS")
fi
if [ "${SBX_SUITE_INSIDE:-}" != 1 ]; then
	[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (private mount namespace, uid 65534)"; exit 77; }
	exec /usr/bin/env SBX_SUITE_INSIDE=1 B="$B" "$root/tests/lib/fakehome.sh" -- /bin/bash "$root/tests/suite-trace-sound.sh"
fi
OS=$B/test-bin/omp-sandboxed
PROBE=$B/test-bin/sound_probe
for f in "$OS" "$PROBE" "$B/test-bin/ll_run"; do
	[ -x "$f" ] || { echo "SKIP: $f not built (make test-bins)"; exit 77; }
done
kabi=$("$B/test-bin/ll_run" --doctor 2>/dev/null | sed -n 's/^landlock: kernel ABI \([0-9]*\).*/\1/p')
[ -n "$kabi" ] || { echo "SKIP: Landlock unavailable"; exit 77; }

npass=0 nfail=0 nskip=0
pass() { echo "PASS: $*"; npass=$((npass + 1)); }
fail() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
skip() { echo "SKIP: $*"; nskip=$((nskip + 1)); }

T=$(mktemp -d /var/tmp/sbx-sound.XXXXXX)   # outside every writable root
chmod 755 "$T"
trap 'rm -rf "$T"' EXIT
printf '#!/bin/bash\nexec "$@"\n' >"$T/omp"
cp "$PROBE" "$T/sound_probe"
chmod 755 "$T/omp" "$T/sound_probe"
# The truncation target: readable, not writable under the policy, owned by
# the identity (so only the sandbox refuses); a copy bind-mounted over
# /etc/hostname in this private mount namespace, never the real file.
echo keep >"$T/ro"
mount --bind "$T/ro" /etc/hostname || { echo "SKIP: cannot bind-mount the target"; exit 77; }

# run ID ABI TRACE VARIANT: the probe's lines into $T/out.ID.ABI.TRACE.VARIANT
run() {
	local id=$1 abi=$2 tr=$3 v=$4 home ids=() args=() vars=()
	if [ "$id" = nobody ]; then
		home=/home/nobody
		ids=(setpriv --reuid=65534 --regid=65534 --clear-groups --)
	else home=/home/tester; fi
	chown "$([ "$id" = nobody ] && echo 65534 || echo 0)" /etc/hostname
	rm -rf "$home/proj"
	mkdir -p "$home/proj"
	git init -q "$home/proj"
	[ "$id" = nobody ] && chown -R 65534:65534 "$home/proj"
	case $v in
	a) args=(--listen) ;;
	b) args=(--wait-gone --listen); vars=(OMP_SANDBOX_KEEP_BACKGROUND=1) ;;
	c) args=(--kill KILL --listen); vars=(OMP_SANDBOX_KEEP_BACKGROUND=1) ;;
	s) args=(--kill STOP --listen); vars=(OMP_SANDBOX_KEEP_BACKGROUND=1) ;;
	esac
	local out=$T/out.$id.$abi.$tr.$v
	(cd "$home/proj" && timeout 60 "${ids[@]}" env -i PATH="$T:/usr/bin:/bin" HOME="$home" \
		TERM=dumb LANG=C OMP_SANDBOX_TOOLS=none OMP_SANDBOX_NETWORK=off \
		OMP_SANDBOX_TRACE="$tr" SB_TEST_LL_ABI="$abi" "${vars[@]}" "${san_env[@]}" \
		"$OS" "$T/sound_probe" "${args[@]}" /etc/hostname "$home/proj/.git/hooks/pre-commit" \
		>"$out" 2>"$out.err" </dev/null) 2>/dev/null
	# the detached probe writes on after the launcher is gone: wait for it
	for _ in $(seq 100); do grep -q '^done' "$out" && break; sleep 0.1; done
	[ -e "$home/proj/.git/hooks/pre-commit" ] && echo "plain gate_write CREATED" >>"$out"
	[ "$(cat /etc/hostname)" = keep ] || { echo "plain truncate EMPTIED" >>"$out"; echo keep >/etc/hostname; }
}

# the calls' outcomes of one run, sorted: "PHASE CALL OUTCOME".  Variant s
# (the supervisors stopped): a call the gate decides is held until the
# probe's 3 s timeout, or answered EACCES when it came before the stop
# landed (a loaded host): both a refusal, one class for the comparison.
outcomes() {
	if [ "${2:-}" = s ]; then
		grep -E '^(plain|listen) ' "$1" | sed -E 's/ (EACCES|TIMEOUT)$/ EACCES-or-held/' | sort
	else
		grep -E '^(plain|listen) ' "$1" | sort
	fi
}
refused() { case $1 in EPERM | EACCES | ENOSYS | EBUSY | TIMEOUT) return 0 ;; esac; return 1; }

t0=$SECONDS
for abi in 1 2 5 7; do
	if [ "$abi" -gt "$kabi" ]; then skip "ABI $abi: above the kernel's ABI $kabi"; continue; fi
	for id in root nobody; do
		variants="a b c"
		[ "$abi" = "$kabi" ] && [ "$id" = root ] && variants="a b c s"
		for v in $variants; do
			run "$id" "$abi" 0 "$v"
			run "$id" "$abi" 1 "$v"
			u=$T/out.$id.$abi.0.$v tr=$T/out.$id.$abi.1.$v
			what="ABI $abi, $id, variant $v"
			if ! grep -q '^done' "$u" || ! grep -q '^done' "$tr"; then
				fail "$what: the probe did not finish (untraced: $(tail -c 300 "$u.err" "$u" | tr '\n' ' '); traced: $(tail -c 300 "$tr.err" "$tr" | tr '\n' ' '))"
				continue
			fi
			bad=""
			while read -r phase call res; do
				refused "$res" || bad="$bad $phase/$call=$res"
			done < <(outcomes "$u"; outcomes "$tr")
			if [ "$(outcomes "$u" | wc -l)" != 20 ]; then
				fail "$what: $(outcomes "$u" | wc -l) outcomes, want 20"
			elif [ -n "$bad" ]; then
				fail "$what: a refused call got through:$bad"
			elif ! diff -q <(outcomes "$u" "$v") <(outcomes "$tr" "$v") >/dev/null; then
				fail "$what: traced differs from untraced: $(diff <(outcomes "$u" "$v") <(outcomes "$tr" "$v") | grep '^[<>]' | tr '\n' ' ')"
			elif ! grep -q '^listener EBUSY' "$u" || ! grep -q '^listener EBUSY' "$tr"; then
				fail "$what: a listener of its own was not refused: $(grep '^listener' "$u" "$tr" | tr '\n' ' ')"
			else
				sig=$(grep -h '^signal\|^gone' "$u" | tr '\n' ' ')
				pass "$what: all 10 calls refused alike traced and untraced, before and under an own listener (EBUSY)${sig:+; $sig}"
			fi
		done
	done
done
echo "suite-trace-sound: $((SECONDS - t0)) s"
echo "suite-trace-sound: $npass passed, $nfail failed, $nskip skipped"
[ "$nfail" = 0 ]
