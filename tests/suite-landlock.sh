#!/usr/bin/env bash
# suite-landlock.sh - Landlock enforcement on the running kernel, in a
# private mount namespace with a tmpfs /home and a throwaway /home/alice,
# as root and as uid 65534 (fixtures owned by the user under test).
# Driver: build/test-bin/ll_run (plan + sb_linux_exec); probe: one access.
# Env: SBRUN_TEST_REQUIRE_LANDLOCK=1 turns "Landlock unavailable" into FAIL.
set -u
cd "$(dirname "$0")/.."
B=${B:-build}
ROOT=$PWD
LLRUN=$ROOT/$B/test-bin/ll_run
PROBE=$ROOT/$B/test-bin/probe
SHIM=$ROOT/$B/test-bin/nolandlock_shim
SPEC=$ROOT/tests/landlock/omp.llspec

if [ "${SB_LL_IN_NS:-}" != 1 ]; then
	for b in "$LLRUN" "$PROBE" "$SHIM"; do
		[ -x "$b" ] || { echo "FAIL: missing $b (make check builds it)"; exit 1; }
	done
	if ! "$LLRUN" --doctor >/dev/null 2>&1; then
		why=$("$LLRUN" --doctor 2>&1 | head -2 | tr '\n' ' ')
		if [ "${SBRUN_TEST_REQUIRE_LANDLOCK:-}" = 1 ]; then
			echo "FAIL: Landlock unavailable: $why"; exit 1
		fi
		echo "SKIP: Landlock unavailable ($why)"; exit 77
	fi
	if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null; then
		echo "SKIP: needs root and unshare for a private mount namespace"; exit 77
	fi
	exec unshare -m --propagation private env SB_LL_IN_NS=1 B="$B" bash "$0" "$@"
fi

# ---- inside the private mount namespace ----
mount -t tmpfs -o mode=0755 tmpfs /home || { echo "FAIL: tmpfs on /home"; exit 1; }
mount -t tmpfs -o mode=0755 tmpfs /mnt || { echo "FAIL: tmpfs on /mnt"; exit 1; }
H=/home/alice
fails=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
who=root
uid=0
run_as() {
	if [ "$uid" = 0 ]; then "$@"; else setpriv --reuid="$uid" --regid="$uid" --clear-groups "$@"; fi
}
# This suite checks the complement expansion (no namespaces); masks:
# tests/suite-masks.sh.
kernel_abi=$("$LLRUN" --doctor | sed -n 's/^landlock: kernel ABI \([0-9]*\).*/\1/p')
L=("$LLRUN" -p "$SPEC" -D HOME=$H -D WORKSPACE=$H/proj -D TMPDIR=/private/tmp --home $H --mechanism complement)

setup_home() {
	rm -rf $H /home/keylink /mnt/ro.txt
	mkdir -p $H/.ssh $H/.aws $H/.omp $H/proj/bin
	echo "-----BEGIN FAKE KEY----- canary" > $H/.ssh/id_rsa
	chmod 600 $H/.ssh/id_rsa
	echo "[default] canary" > $H/.aws/credentials
	echo "notes canary" > $H/notes.txt
	printf '[user]\n\tname = alice\n' > $H/.gitconfig
	echo "omp state" > $H/.omp/state
	echo "source" > $H/proj/main.c
	cp /bin/true $H/proj/bin/true
	cp /bin/true $H/true
	echo "read-only area" > /mnt/ro.txt
	ln $H/.ssh/id_rsa /home/keylink     # a hard link in an expanded directory
	chown -R "$uid:$uid" $H /mnt/ro.txt /home/keylink
}

# check DESC WANT PROBE-ARGS...: run probe under the sandbox
check() {
	local desc=$1 want=$2 got
	shift 2
	got=$(run_as "${L[@]}" -- "$PROBE" "$@" 2>/dev/null | head -1)
	if [ "$got" = "$want" ]; then pass "$desc [$who]"; else fail "$desc [$who]: want $want, got '${got}'"; fi
}

enforcement() {
	setup_home
	check "read ~/.ssh/id_rsa denied" EACCES read $H/.ssh/id_rsa
	check "read ~/.aws/credentials denied" EACCES read $H/.aws/credentials
	check "read ~/.gitconfig denied" EACCES read $H/.gitconfig
	check "read workspace file allowed" OK read $H/proj/main.c
	check "create in workspace allowed" OK create $H/proj
	check "mkdir in workspace allowed" OK mkdir $H/proj
	check "write workspace file allowed" OK write $H/proj/main.c
	check "exec in workspace allowed" OK exec $H/proj/bin/true
	check "read ~/.omp allowed" OK read $H/.omp/state
	check "create in ~/.omp allowed" OK create $H/.omp
	check "list ~/.omp allowed" OK list $H/.omp
	check "create in \$HOME denied" EACCES create $H
	check "write ~/notes.txt denied" EACCES write $H/notes.txt
	check "list \$HOME denied" EACCES list $H
	check "stat \$HOME allowed" OK stat $H
	check "stat ~/.ssh/id_rsa allowed (platform gap)" OK stat $H/.ssh/id_rsa
	check "create in /etc denied" EACCES create /etc
	check "write /etc/passwd denied" EACCES write /etc/passwd
	check "read /etc/passwd allowed" OK read /etc/passwd
	check "exec /usr/bin/true allowed" OK exec /usr/bin/true
	check "create in /tmp allowed" OK create /tmp
	check "write /dev/null allowed" OK write /dev/null
	check "list /dev allowed" OK list /dev
	# Landlock's TRUNCATE right (ABI 3+) says EACCES; below, the seccomp
	# truncation guard refuses truncate(2) outright with EPERM
	# (runtime/linux/seccomp_trunc.c), as on Debian 12's own kernel.
	local trunc_err=EACCES
	[ "$kernel_abi" -lt 3 ] && trunc_err=EPERM
	check "truncate ~/notes.txt denied" $trunc_err truncate $H/notes.txt
	check "truncate /mnt/ro.txt denied" $trunc_err truncate /mnt/ro.txt
	check "mknod in workspace denied" EACCES mknod $H/proj
	check "hard link to id_rsa in an expanded dir denied" EACCES read /home/keylink
	check "list / denied (expanded ancestor)" EACCES list /
	check "unlink in workspace allowed" OK unlink $H/proj/main.c
	[ -e $H/notes.txt ] && [ -s $H/notes.txt ] && pass "notes.txt intact [$who]" || fail "notes.txt damaged [$who]"

	# TIOCSTI on the inherited controlling tty, under a real pty
	local out
	out=$(run_as script -qec "$(printf '%q ' "${L[@]}") -- $PROBE tiocsti 0" /dev/null 2>/dev/null | tr -d '\r' | head -1)
	[ "$out" = EPERM ] && pass "TIOCSTI refused under a pty [$who]" || fail "TIOCSTI under a pty [$who]: got '$out'"
	out=$(run_as script -qec "$PROBE tiocsti 0" /dev/null 2>/dev/null | tr -d '\r' | head -1)
	echo "  (control, unsandboxed TIOCSTI: $out)"

	# inherited descriptors are closed on exec
	out=$(run_as bash -c 'exec 5<"$1"; shift; exec "$@"' _ $H/.ssh/id_rsa "${L[@]}" -- "$PROBE" fdread 5 2>/dev/null)
	[ "$out" = EBADF ] && pass "inherited fd to id_rsa closed [$who]" || fail "inherited fd [$who]: got '$out'"

	# an outside process of the same uid: /proc/PID/environ
	run_as sleep 300 &
	local pid=$!
	sleep 0.2
	out=$("$PROBE" environ $pid 2>/dev/null)
	check "/proc/<outside pid>/environ denied" EACCES environ $pid
	echo "  (control, unsandboxed environ read: $out)"
	kill $pid 2>/dev/null; wait $pid 2>/dev/null

	# bind-mount alias of $HOME
	mkdir -p /mnt/alias && mount --bind $H /mnt/alias
	check "read id_rsa through bind alias denied" EACCES read /mnt/alias/.ssh/id_rsa
	check "list bind alias denied" EACCES list /mnt/alias
	check "create in workspace through the alias denied" EACCES create /mnt/alias/proj
	if run_as "${L[@]}" --plan 2>/dev/null | grep -q "bind-mount alias of $H"; then
		pass "plan reports the alias [$who]"
	else
		fail "plan does not report the alias [$who]"
	fi
	umount /mnt/alias && rmdir /mnt/alias
}

for u in 0 65534; do
	uid=$u
	who=$([ $u = 0 ] && echo root || echo uid$u)
	enforcement
done
uid=0 who=root
setup_home

# ---- fail closed ----
expect_rc() {   # DESC RC GREP CMD...
	local desc=$1 want=$2 pat=$3 out rc
	shift 3
	out=$("$@" 2>&1)
	rc=$?
	if [ $rc = "$want" ] && { [ -z "$pat" ] || grep -q -- "$pat" <<<"$out"; }; then
		pass "$desc"
	else
		fail "$desc: rc $rc (want $want), output: $(head -c 300 <<<"$out")"
	fi
}
expect_rc "no Landlock (ENOSYS) refused with hint" 78 "not built into this kernel" \
	"$SHIM" ENOSYS "${L[@]}" -- "$PROBE" stat /
expect_rc "Landlock disabled (EOPNOTSUPP) refused with hint" 78 "lsm=" \
	"$SHIM" EOPNOTSUPP "${L[@]}" -- "$PROBE" stat /
expect_rc "--allow-unsandboxed runs with a warning" 0 "RUNNING WITHOUT THE LANDLOCK SANDBOX" \
	"$SHIM" ENOSYS "${L[@]}" --allow-unsandboxed -- "$PROBE" stat /
for f in probe:ENOSYS create:EINVAL add_rule:EINVAL restrict:EPERM seccomp:EINVAL prctl:EPERM restrict_noop:0; do
	expect_rc "injected failure $f refused" 78 "" "${L[@]}" --fail $f -- "$PROBE" stat /
done
expect_rc "a ruleset that is not enforced is detected" 78 "not enforced" \
	"${L[@]}" --fail restrict_noop:0 -- "$PROBE" stat /
expect_rc "command not found: 127" 127 "not found" "${L[@]}" -- $H/proj/no-such-command
expect_rc "command without EXECUTE: 126 with a hint" 126 "EXECUTE" "${L[@]}" -- $H/true
expect_rc "ABI 2 runs by default (truncation guard)" 0 "" \
	"${L[@]}" --clamp-abi 2 -- "$PROBE" stat /
expect_rc "ABI 2 below --require-abi 3 refused" 78 "below the minimum" \
	"${L[@]}" --clamp-abi 2 --min-abi 3 -- "$PROBE" stat /
expect_rc "unenforceable deny refused" 78 "not-enforceable" \
	"$LLRUN" -p "$ROOT/tests/landlock/unanchored.llspec" -- "$PROBE" stat /
expect_rc "unenforceable deny runs when opted in" 0 "" \
	"$LLRUN" -p "$ROOT/tests/landlock/unanchored.llspec" --allow-unenforceable -- "$PROBE" stat /

S=("$LLRUN" -p "$ROOT/tests/landlock/signal-deny.llspec")
expect_rc "signal deny below ABI 6 refused as not enforceable" 78 "below Landlock ABI 6" \
	"${S[@]}" --clamp-abi 5 -- "$PROBE" stat /
expect_rc "signal deny below ABI 6 runs when opted in" 0 "" \
	"${S[@]}" --clamp-abi 5 --allow-unenforceable -- "$PROBE" stat /
if [ "$("$LLRUN" --doctor | sed -n 's/^landlock: kernel ABI \([0-9]*\).*/\1/p')" -ge 6 ]; then
	expect_rc "signal deny at ABI 6 runs (scope)" 0 "" "${S[@]}" --clamp-abi 6 -- "$PROBE" stat /
fi

# ---- seccomp ----
U=("$LLRUN" -p "$ROOT/tests/landlock/unix-deny.llspec")
got=$("${U[@]}" -- "$PROBE" socket_unix x 2>/dev/null)
[ "$got" = EPERM ] && pass "socket(AF_UNIX) refused when the profile denies UNIX sockets" || fail "AF_UNIX block: $got"
got=$("${L[@]}" -- "$PROBE" socket_unix x 2>/dev/null)
[ "$got" = OK ] && pass "socket(AF_UNIX) allowed when the profile does not deny it" || fail "AF_UNIX allowed: $got"
got=$("${L[@]}" -- "$PROBE" io_uring x 2>/dev/null)
[ "$got" = EPERM ] && pass "io_uring_setup refused" || fail "io_uring_setup: $got"
if [ "$(uname -m)" = x86_64 ]; then
	rc=$( ("${L[@]}" -- "$PROBE" x32 x >/dev/null 2>&1; echo $?) 2>/dev/null)
	[ $rc = 159 ] && pass "x32 system call kills the process (SIGSYS)" || fail "x32 call: exit $rc"
fi

# ---- ABI emulation (test clamp): truncation closed at every ABI ----
# Below ABI 3 by the seccomp truncation guard (runtime/linux/seccomp_trunc.c),
# from ABI 3 by Landlock's TRUNCATE right.  The negative control (guard off)
# shows the hole is real, so the guard's PASS lines are not vacuous.
kabi=$("$LLRUN" --doctor | sed -n 's/^landlock: kernel ABI \([0-9]*\).*/\1/p')
ro_intact() { [ "$(cat /mnt/ro.txt)" = ro ]; }
for n in $(seq 1 "$kabi"); do
	setup_home
	got=$("${L[@]}" --clamp-abi $n -- "$PROBE" read $H/.ssh/id_rsa 2>/dev/null)
	[ "$got" = EACCES ] && pass "ABI $n: id_rsa denied" || fail "ABI $n: id_rsa: $got"
	for op in truncate trunc-ro trunc-acc3 trunc-rw trunc-openat2; do
		echo ro >/mnt/ro.txt
		got=$("${L[@]}" --clamp-abi $n -- "$PROBE" $op /mnt/ro.txt 2>/dev/null)
		if ro_intact && [ "$got" != OK ]; then
			pass "ABI $n: $op of a read-only file refused ($got)"
		else
			fail "ABI $n: $op of a read-only file: $got, content '$(cat /mnt/ro.txt)'"
		fi
	done
	# inside a writable root truncation works (ftruncate and O_WRONLY|O_TRUNC)
	echo data >$H/proj/t.txt
	got=$("${L[@]}" --clamp-abi $n -- "$PROBE" trunc-rw $H/proj/t.txt 2>/dev/null)
	[ "$got" = OK ] && [ ! -s $H/proj/t.txt ] && pass "ABI $n: O_RDWR|O_TRUNC in the workspace works" ||
		fail "ABI $n: O_RDWR|O_TRUNC in the workspace: $got"
	echo data >$H/proj/t.txt
	got=$("${L[@]}" --clamp-abi $n -- /usr/bin/truncate -s 0 $H/proj/t.txt 2>&1)
	[ ! -s $H/proj/t.txt ] && pass "ABI $n: truncate(1) (ftruncate) in the workspace works" ||
		fail "ABI $n: truncate(1) in the workspace: $got"
	if [ $n -lt 3 ]; then
		echo ro >/mnt/ro.txt
		got=$("${L[@]}" --clamp-abi $n --fail no_truncate_guard:0 -- "$PROBE" trunc-ro /mnt/ro.txt 2>/dev/null)
		if [ "$got" = OK ] && ! ro_intact; then
			pass "ABI $n: negative control: without the guard O_RDONLY|O_TRUNC empties the file"
		else
			fail "ABI $n: negative control: the hole did not show ($got)"
		fi
		echo ro >/mnt/ro.txt
	fi
done

[ $fails -eq 0 ]
