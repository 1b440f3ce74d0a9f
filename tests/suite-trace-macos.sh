#!/usr/bin/env bash
# suite-trace-macos.sh: the denial trace's macOS side (runtime/macos/
# macos_trace.h; unverified on macOS: there is no Mac here).  The test build
# of omp-sandboxed/sbrun runs the macOS launch on Linux (SB_TEST_PLATFORM=
# macos) through the stand-ins for sandbox-exec (runs the command
# unconfined and records what it got) and /usr/bin/log (records its argv
# and replays violation lines written by hand in the format of `log stream
# --style compact`, not recorded on a Mac).  Checked: the exact argv of the
# log process, the deny rules' trace messages in the -p text and nowhere
# when untraced, each violation mapped to its policy line and fix, a forged
# line (not the kernel's) and another session's tag ignored, --learn, and
# the refusal when the log cannot be read.  Exit 0 pass, 77 skip, 1 fail.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-build}
case $B in /*) ;; *) B=$root/$B ;; esac
if [ "${SBX_SUITE_INSIDE:-}" != 1 ]; then
	exec /usr/bin/env SBX_SUITE_INSIDE=1 B="$B" "$root/tests/lib/fakehome.sh" -- \
		/bin/bash "$root/tests/suite-trace-macos.sh"
fi
OS=$B/test-bin/omp-sandboxed
SBC=$B/bin/sbc
for f in "$OS" "$SBC" "$B/test-bin/fake_log" "$B/test-bin/fake_sandbox_exec"; do
	[ -x "$f" ] || { echo "SKIP: $f not built (make check builds the test binaries)"; exit 77; }
done
H=$HOME
T=$(mktemp -d /tmp/sbx-suite-trace-macos.XXXXXX)
trap 'rm -rf "$T"' EXIT
npass=0 nfail=0
pass() { echo "PASS: $*"; npass=$((npass + 1)); }
fail() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
contains() { grep -qF -- "$2" <<<"$1"; }

mkdir -p "$T/bin" "$H/proj" "$H/.ssh"
printf '#!/bin/bash\nexec "$@"\n' >"$T/bin/omp"
chmod 755 "$T/bin/omp"
echo "not a key" >"$H/.ssh/id_rsa"
WS=$H/proj
rec=$WS/fake-sandbox-exec.rec
lineno() { grep -nF -- "$1" "$root/examples/omp.sbx" | head -1 | cut -d: -f1; }
L_READ=$(lineno 'deny read home')
L_WRITE=$(grep -nE '^deny write' "$root/examples/omp.sbx" | head -1 | cut -d: -f1)

# Violations as `log stream --style compact` shows them: the message on the
# next line, the message ending the line, a line logged by a process (a
# forgery), another session's tag, an operation the trace does not classify.
cat >"$T/lines" <<EOF
2026-12-01 23:50:01.123 E  kernel[0:2a1f] (Sandbox) Sandbox: cat(7866) deny(1) file-read-data $H/.ssh/id_rsa
omp-sandbox rule omp.sbx:$L_READ @TAG@
2026-12-01 23:50:01.125 E  kernel[0:2a1f] (Sandbox) Sandbox: sh(7867) deny(1) file-write-create /var/tmp/out side.txt omp-sandbox rule omp.sbx:$L_WRITE @TAG@
2026-12-01 23:50:01.126 Df logger[7868:2a20] (libsystem_trace.dylib) Sandbox: cat(1) deny(1) file-read-data /etc/forged omp-sandbox rule omp.sbx:1 @TAG@
2026-12-01 23:50:01.127 E  kernel[0:2a1f] (Sandbox) Sandbox: cat(7870) deny(1) file-read-data /etc/other-session omp-sandbox rule omp.sbx:1 OMPSBX-00000000000000ff
2026-12-01 23:50:01.128 E  kernel[0:2a1f] (Sandbox) Sandbox: git(7869) deny(1) mach-lookup com.apple.foo
omp-sandbox rule omp.sbx:3 @TAG@
EOF

run() {
	local vars=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do vars+=("$1"); shift; done
	shift
	rm -f "$rec" "$T/log.rec"
	out=$(cd "$WS" && /usr/bin/env -i PATH="$T/bin:/usr/bin:/bin" HOME="$H" TERM=dumb LANG=C.UTF-8 \
		SB_TEST_PLATFORM=macos SB_TEST_LOG_LINES="$T/lines" SB_TEST_LOG_REC="$T/log.rec" \
		OMP_SANDBOX_TOOLS=none "${vars[@]}" "$OS" "$@" 2>"$T/err")
	rc=$?
	err=$(cat "$T/err")
}

# ---- untraced: no message, no log process ----
run -- /bin/echo hi
if [ "$rc" = 0 ] && [ -f "$rec" ] && ! grep -q 'with message' "$rec" && [ ! -e "$T/log.rec" ]; then
	pass "untraced: the -p text has no trace message and no log process runs"
else fail "untraced: rc=$rc $(grep -c 'with message' "$rec" 2>/dev/null) log.rec=$(ls "$T/log.rec" 2>/dev/null)"; fi
cp "$rec" "$T/untraced.rec"

# ---- traced ----
run OMP_SANDBOX_TRACE=1 -- /bin/sh -c 'exit 3'
tag=$(sed -n 's/^argv\[5\]=.*ENDSWITH "\(OMPSBX-[0-9a-f]*\)")$/\1/p' "$T/log.rec" 2>/dev/null)
if [ -f "$T/log.rec" ] && [ "$(sed -n 1,5p "$T/log.rec" | tr '\n' ' ')" = "argv[0]=$B/test-bin/fake_log argv[1]=stream argv[2]=--style argv[3]=compact argv[4]=--predicate " ] &&
	grep -qx "argv\[5\]=(processID == 0) AND (eventMessage ENDSWITH \"$tag\")" "$T/log.rec" &&
	[ "${#tag}" = 23 ] && [ "$(wc -l <"$T/log.rec")" = 6 ]; then
	pass "log argv: stream --style compact --predicate '(processID == 0) AND (eventMessage ENDSWITH \"$tag\")'"
else fail "log argv: $(cat "$T/log.rec" 2>/dev/null)"; fi
[ "$rc" = 3 ] && pass "traced: the command's exit status comes back (3)" || fail "traced status $rc"
ndeny=$(sed -n '/^profile:$/,$p' "$rec" | grep -c '^(deny')
nmsg=$(sed -n '/^profile:$/,$p' "$rec" | grep -c "(with message \"omp-sandbox rule [^ ]* $tag\")")
if [ "$ndeny" -ge 2 ] && [ "$nmsg" = "$ndeny" ] &&
	sed -n '/^profile:$/,$p' "$rec" | grep -qF "(with message \"omp-sandbox rule omp.sbx:$L_READ $tag\")"; then
	pass "traced: each of the $ndeny deny rules carries its policy line and the session's tag"
else fail "messages: $nmsg of $ndeny deny rules"; fi
if diff <(sed -n '/^profile:$/,$p' "$T/untraced.rec") <(sed -n '/^profile:$/,$p' "$rec" | sed 's/ (with message "[^"]*")//') >/dev/null; then
	pass "traced: apart from the messages the profile is the untraced one, byte for byte"
else fail "traced profile differs beyond the messages"; fi
if contains "$err" "sandbox: denied read $H/.ssh/id_rsa — omp.sbx:$L_READ \"deny read home\"; to allow: OMP_SANDBOX_EXTRA_READ=~/.ssh/id_rsa (sensitive: also set OMP_SANDBOX_CONFIRM_SENSITIVE_READ=1) [cat pid 7866]"; then
	pass "violation (message on the next line): the policy line, the statement and the fix"
else fail "read violation: $err"; fi
if contains "$err" "sandbox: denied create /var/tmp/out side.txt — omp.sbx:$L_WRITE " && contains "$err" "[sh pid 7867]"; then
	pass "violation (message ending the line, a space in the path): create, with its line"
else fail "write violation: $err"; fi
if ! contains "$err" "/etc/forged" && ! contains "$err" "/etc/other-session"; then
	pass "a line not logged by the kernel and another session's tag are ignored"
else fail "forged or foreign line reported: $err"; fi
if contains "$err" "sandbox: trace summary: 2 denied accesses (2 distinct), exit status 3; 1 event could not be read"; then
	pass "summary: two denials; the mach-lookup violation counted as not classified"
else fail "summary: $(grep summary <<<"$err")"; fi

# ---- JSON ----
run OMP_SANDBOX_TRACE=1 OMP_SANDBOX_TRACE_FORMAT=json -- /bin/true
if contains "$err" "{\"event\":\"denied\",\"access\":\"read\",\"path\":\"$H/.ssh/id_rsa\",\"pid\":7866,\"process\":\"cat\",\"syscall\":\"file-read-data\",\"policy\":{\"file\":\"omp.sbx\",\"line\":$L_READ,\"statement\":\"deny read home\"}"; then
	pass "JSON: the Seatbelt operation, the policy line and statement"
else fail "json: $err"; fi

# ---- learn ----
run -- --learn "$T/learned.sbx" /bin/true
if [ "$rc" = 0 ] && grep -q "^# needed by cat (pid 7866): read ~/.ssh/id_rsa; denied by omp.sbx:$L_READ" "$T/learned.sbx" &&
	grep -q '^allow read ' "$T/learned.sbx"; then
	pass "learn: a grant for each violation, with the process and the policy line"
else fail "learn: rc=$rc $(cat "$T/learned.sbx" 2>/dev/null)"; fi

# ---- the log cannot be read: refused, the command never runs ----
run OMP_SANDBOX_TRACE=1 SB_TEST_LOG_FAIL="log: Must be admin to run 'stream' command" -- /bin/sh -c "touch $WS/ran"
if [ "$rc" = 78 ] && [ ! -e "$WS/ran" ] && contains "$err" "cannot read the sandbox's violations from the unified log" &&
	contains "$err" "Must be admin to run 'stream' command" && contains "$err" "Run without --trace/--learn"; then
	pass "the log refuses: the launch is refused (78) with its words and the override; the command never ran"
else fail "log failure: rc=$rc ran=$(ls "$WS/ran" 2>/dev/null) $err"; fi

# ---- the child cannot enter the workspace: a refusal (78), not 255 ----
# (the stand-in log removes the workspace once the launch is prepared; the
# child used to _exit with the negative SB_REFUSED, which reads as 255)
mkdir -p "$H/gone"
rm -f "$T/log.rec"
out=$(cd "$H/gone" && /usr/bin/env -i PATH="$T/bin:/usr/bin:/bin" HOME="$H" TERM=dumb LANG=C.UTF-8 \
	SB_TEST_PLATFORM=macos SB_TEST_LOG_LINES=/dev/null SB_TEST_LOG_RMDIR="$H/gone" \
	OMP_SANDBOX_TOOLS=none OMP_SANDBOX_TRACE=1 "$OS" /bin/sh -c "touch $WS/ran" 2>"$T/err")
rc=$?
err=$(cat "$T/err")
if [ "$rc" = 78 ] && [ ! -e "$H/gone" ] && [ ! -e "$WS/ran" ] &&
	contains "$err" "cannot enter the workspace $H/gone"; then
	pass "the traced child cannot enter the workspace: refused (78) with the reason; the command never ran"
else fail "traced child refusal: rc=$rc gone=$(ls -d "$H/gone" 2>/dev/null) $err"; fi

echo "suite-trace-macos: $npass passed, $nfail failed"
[ "$nfail" = 0 ]
