#!/usr/bin/env bash
# suite-omp-sandboxed.sh: every variable, gate and flag of omp-sandboxed
# (docs/omp-sandboxed.md), run for real under Landlock with a throwaway home
# (tests/lib/fakehome.sh: private mount namespace, tmpfs /home, getpwuid()
# returning /home/tester).  The macOS path runs through the test build's
# sandbox-exec stand-in.  Exit 0 pass, 77 skip, 1 fail.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-build}
case $B in /*) ;; *) B=$root/$B ;; esac
if [ "${SBX_SUITE_INSIDE:-}" != 1 ]; then
	exec /usr/bin/env SBX_SUITE_INSIDE=1 B="$B" "$root/tests/lib/fakehome.sh" -- \
		/bin/bash "$root/tests/suite-omp-sandboxed.sh"
fi

OS=$B/bin/omp-sandboxed
OST=$B/test-bin/omp-sandboxed
PROBE=$B/test-bin/probe_cmd
for f in "$OS" "$OST" "$PROBE" "$B/test-bin/fake_sandbox_exec"; do
	[ -x "$f" ] || { echo "SKIP: $f not built"; exit 77; }
done
H=/home/tester
[ "$(getent passwd "$(id -u)" | cut -d: -f6)" = "$H" ] || { echo "FAIL: not inside fakehome"; exit 1; }

T=$(mktemp -d /tmp/sbx-suite-os.XXXXXX)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/bin" "$H/proj" "$H/.ssh" "$H/bin"
ln -s "$PROBE" "$T/bin/omp"
# $T/sys: the system tools the checks need and no omp or bun, whatever this
# machine has installed globally (a PATH of our own for "omp is not on PATH")
. "$root/tests/lib/toolpath.sh"
toolpath "$T/sys" sh cat ls env true || { echo "FAIL: toolpath"; exit 1; }
echo secret > "$H/.ssh/id_rsa"
npass=0 nfail=0 nskip=0
pass() { echo "PASS: $*"; npass=$((npass + 1)); }
fail() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
skip() { echo "SKIP: $*"; nskip=$((nskip + 1)); }

# run [VAR=value...] -- ARGS...: omp-sandboxed in the workspace with a small,
# exact parent environment; sets $out, $err, $rc.
BIN=$OS
run() {
	local vars=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do vars+=("$1"); shift; done
	shift
	out=$(cd "${WS:-$H/proj}" && /usr/bin/env -i PATH="$T/bin:/usr/bin:/bin" HOME=$H USER=root \
		TERM=dumb LANG=C.UTF-8 "${vars[@]}" "$BIN" "$@" 2>"$T/err")
	rc=$?
	err=$(cat "$T/err")
}
has() { grep -qxF -- "$2" <<<"$1"; }          # exact line
contains() { grep -qF -- "$2" <<<"$1"; }
expect_rc() { # DESC WANT
	if [ "$rc" = "$2" ]; then pass "$1"; else fail "$1 (exit $rc, want $2; stderr: ${err:0:300})"; fi
}

# ---- launch basics ----
run -- --model 'x y' --exit=3
if [ $rc = 3 ] && has "$out" "argv[1]=--model" && has "$out" "argv[2]=x y" && has "$out" "cwd=$H/proj"; then
	pass "arguments forwarded unchanged, cwd is the workspace, exit status returned"
else fail "launch basics (rc=$rc): $out $err"; fi
run -- --signal=15
expect_rc "a signal kills the command: status 128+N" 143
run OMP_SANDBOX_YOLO=1 -- hello
if has "$out" "argv[1]=--auto-approve" && has "$out" "argv[2]=hello"; then pass "OMP_SANDBOX_YOLO=1 adds --auto-approve first"; else fail "YOLO: $out"; fi
run OMP_SANDBOX_YOLO=true -- hello
if has "$out" "argv[1]=hello"; then pass "OMP_SANDBOX_YOLO=true is off (only exactly 1)"; else fail "YOLO=true: $out"; fi

# ---- a plain command: omp-sandboxed --sandbox-run (docs/omp-sandboxed.md) ----
out=$(cd "$H/proj" && /usr/bin/env -i PATH=/usr/bin:/bin HOME=$H TERM=dumb OMP_SANDBOX_YOLO=1 \
	"$OS" --sandbox-run /bin/sh -c 'echo "marker=$OMP_SANDBOX args=$*"; cat ~/.ssh/id_rsa; echo x > f.txt; exit 5' sh a 'b c' 2>"$T/err")
rc=$?
err=$(cat "$T/err")
if [ $rc = 5 ] && has "$out" "marker=landlock args=a b c" && contains "$err" "id_rsa" &&
	! contains "$out" "secret" && [ -e "$H/proj/f.txt" ]; then
	pass "--sandbox-run CMD: a plain command under the same sandbox, no omp needed, no --auto-approve, its status back"
else fail "--sandbox-run (rc=$rc): $out / $err"; fi
rm -f "$H/proj/f.txt"
out=$(/usr/bin/env -i PATH=/usr/bin:/bin HOME=$H "$OS" --sandbox-run 2>&1)
rc=$?
if [ $rc = 2 ] && contains "$out" "--sandbox-run needs a command"; then pass "--sandbox-run without a command: usage error (2)"
else fail "--sandbox-run alone (rc=$rc): $out"; fi
run -- --sandbox-run-x
if has "$out" "argv[1]=--sandbox-run-x"; then pass "an omp argument that only starts like --sandbox-run goes to omp"; else fail "--sandbox-run-x: $out"; fi

# ---- "denied looks absent", said once to a person (a terminal), where masks make it so ----
if [ -x /usr/bin/script ]; then
	tty_out=$(cd "$H/proj" && /usr/bin/script -qec "/usr/bin/env -i PATH=/usr/bin:/bin HOME=$H TERM=dumb NO_COLOR=1 $OS --sandbox-run /bin/true" /dev/null)
	tty_traced=$(cd "$H/proj" && /usr/bin/script -qec "/usr/bin/env -i PATH=/usr/bin:/bin HOME=$H TERM=dumb NO_COLOR=1 OMP_SANDBOX_TRACE=1 $OS --sandbox-run /bin/true" /dev/null)
	run -- x
	if [ "$(grep -c 'that the policy denies look absent in this sandbox' <<<"$tty_out")" = 1 ] &&
		! contains "$err" "look absent" && [ "$(grep -c 'look absent in this sandbox' <<<"$tty_traced")" = 1 ] &&
		contains "$tty_traced" "OMP_SANDBOX_TRACE_STAT=1"; then
		pass "masks: one note at launch on a terminal that denied home files look absent (traced too: the same mechanism), none in scripts"
	else fail "look-absent note: tty=[$tty_out] traced=[$tty_traced] err=[$err]"; fi
else skip "look-absent note: /usr/bin/script (a terminal) is not installed"; fi

# ---- environment ----
run SECRET_TOKEN=s3cret LD_PRELOAD=/nonexistent.so NODE_OPTIONS=--x EDITOR=vi -- x
envs=$(grep '^env=' <<<"$out" | sed 's/^env=//' | cut -d= -f1 | tr '\n' ' ')
if [ "$envs" = "HOME TMPDIR OMP_SANDBOX PI_SANDBOX PATH USER LANG TERM XDG_CACHE_HOME npm_config_cache BUN_INSTALL_CACHE_DIR PIP_CACHE_DIR GOPATH CARGO_HOME DENO_DIR " ]; then
	pass "clean environment: exactly the allowlist, the markers and the presets' cache settings, in order"
else fail "clean environment: $envs"; fi
run OMP_SANDBOX_TOOLS=none SECRET_TOKEN=s3cret LD_PRELOAD=/nonexistent.so -- x
envs=$(grep '^env=' <<<"$out" | sed 's/^env=//' | cut -d= -f1 | tr '\n' ' ')
if [ "$envs" = "HOME TMPDIR OMP_SANDBOX PI_SANDBOX PATH USER LANG TERM " ]; then
	pass "OMP_SANDBOX_TOOLS=none: exactly the original's allowlist and the markers"
else fail "clean environment with the presets off: $envs"; fi
if has "$out" "env=OMP_SANDBOX=landlock" && has "$out" "env=PI_SANDBOX=landlock" && has "$out" "env=HOME=$H"; then
	pass "markers OMP_SANDBOX=landlock and PI_SANDBOX=landlock, verified HOME"
else fail "markers: $out"; fi
run SECRET_TOKEN=s3cret OMP_SANDBOX_PASS_ENV=SECRET_TOKEN:MISSING_ONE -- x
if has "$out" "env=SECRET_TOKEN=s3cret" && contains "$err" "MISSING_ONE is not set or empty"; then
	pass "OMP_SANDBOX_PASS_ENV passes named variables, warns on unset ones"
else fail "PASS_ENV: $out $err"; fi
run OMP_SANDBOX_PASS_ENV='GOOD:FOO-BAR' -- x
if [ $rc = 78 ] && contains "$err" "'FOO-BAR' is not a valid variable name" && ! has "$out" "argv[0]=$T/bin/omp"; then
	pass "invalid OMP_SANDBOX_PASS_ENV name refused (78), nothing launched"
else fail "invalid PASS_ENV (rc=$rc): $err"; fi
run OMP_SANDBOX_PASS_ENV=HOME -- x
if has "$out" "env=HOME=$H" && contains "$err" "HOME is set by the launcher"; then pass "PASS_ENV of a controlled name ignored with a warning"; else fail "PASS_ENV=HOME: $err"; fi
run OMP_SANDBOX_INHERIT_ENV=1 SECRET_TOKEN=s3cret LD_PRELOAD=/nonexistent.so BASH_ENV=/x -- x
if has "$out" "env=SECRET_TOKEN=s3cret" && ! contains "$out" "LD_PRELOAD" && ! contains "$out" "BASH_ENV" && contains "$err" "insecure"; then
	pass "OMP_SANDBOX_INHERIT_ENV=1: full env with a loud warning, loader variables still dropped"
else fail "INHERIT_ENV: $out $err"; fi
run OMP_SANDBOX_INHERIT_ENV=1 OMP_SANDBOX_PASS_ENV=LD_PRELOAD LD_PRELOAD=/nonexistent.so -- x
if has "$out" "env=LD_PRELOAD=/nonexistent.so" && contains "$err" "LD_PRELOAD can make programs"; then
	pass "a loader variable passes only when named in PASS_ENV, with a warning"
else fail "PASS_ENV loader: $err"; fi

# ---- home ----
run HOME=/tmp -- x
if [ $rc = 78 ] && contains "$err" "differs from the real home" && contains "$err" "OMP_SANDBOX_SKIP_HOME_VERIFY=1"; then
	pass "inherited HOME differing from the user database refused (78)"
else fail "HOME mismatch (rc=$rc): $err"; fi
run HOME=/tmp OMP_SANDBOX_SKIP_HOME_VERIFY=1 -- x
if [ $rc = 0 ] && has "$out" "env=HOME=$H" && contains "$err" "warning"; then
	pass "OMP_SANDBOX_SKIP_HOME_VERIFY=1: warning, the real home still wins"
else fail "SKIP_HOME_VERIFY (rc=$rc): $err"; fi
ln -s "$H" "$T/homelink"
run HOME=$H/ -- x
r1=$rc
run HOME="$T/homelink" -- x
if [ $r1 = 0 ] && [ $rc = 0 ]; then pass "trailing slash and symlinked spelling of HOME accepted"; else fail "HOME spelling ($r1/$rc): $err"; fi

# ---- workspace ----
for w in / "$H" /home "$H/.ssh"; do
	run OMP_SANDBOX_WORKSPACE="$w" -- x
	if [ $rc = 78 ] && contains "$err" "OMP_SANDBOX_CONFIRM_WIDE=1"; then pass "workspace $w refused (78)"; else fail "workspace $w (rc=$rc): $err"; fi
done
run OMP_SANDBOX_WORKSPACE=/ OMP_SANDBOX_CONFIRM_WIDE=1 -- x
if [ $rc = 0 ] && has "$out" "cwd=/" && contains "$err" "warning"; then pass "OMP_SANDBOX_CONFIRM_WIDE=1 allows / with a warning"; else fail "CONFIRM_WIDE (rc=$rc): $err"; fi
run OMP_SANDBOX_WORKSPACE=/nonexistent/ws -- x
if [ $rc = 78 ] && contains "$err" "does not exist"; then pass "missing workspace refused (78)"; else fail "missing workspace: $err"; fi
mkdir -p "$H/proj/sub"
run OMP_SANDBOX_WORKSPACE='~/proj/sub/' -- x
if [ $rc = 0 ] && has "$out" "cwd=$H/proj/sub"; then pass "OMP_SANDBOX_WORKSPACE with ~ expanded and canonical"; else fail "workspace ~ (rc=$rc): $out $err"; fi

# ---- temp dir ----
run TMPDIR=/usr -- x
if has "$out" "env=TMPDIR=/tmp" && contains "$err" "not a known scratch root"; then pass "TMPDIR outside the scratch roots falls back to /tmp with a warning"; else fail "TMPDIR: $out $err"; fi
run TMPDIR=$H -- x
if has "$out" "env=TMPDIR=/tmp"; then pass "TMPDIR=\$HOME is not accepted"; else fail "TMPDIR=HOME: $out"; fi

# ---- extras ----
run OMP_SANDBOX_EXTRA_READ='~/.ssh' -- --read=$H/.ssh/id_rsa
if [ $rc = 78 ] && contains "$err" "sensitive home location" && contains "$err" "OMP_SANDBOX_CONFIRM_SENSITIVE_READ=1"; then
	pass "EXTRA_READ=~/.ssh refused (78) naming the override"
else fail "EXTRA_READ sensitive (rc=$rc): $err"; fi
run OMP_SANDBOX_EXTRA_READ='~/.ssh' OMP_SANDBOX_CONFIRM_SENSITIVE_READ=1 -- --read=$H/.ssh/id_rsa
if [ $rc = 0 ] && has "$out" "read-ok"; then pass "EXTRA_READ=~/.ssh with the confirm variable is readable in the sandbox"; else fail "confirmed extra (rc=$rc): $out $err"; fi
run -- --read=$H/.ssh/id_rsa
# (EACCES from Landlock's complement; ENOENT with masks: $HOME is an empty tmpfs)
if has "$out" "read-denied: Permission denied" || has "$out" "read-denied: No such file or directory"; then pass "~/.ssh/id_rsa is read-denied in the sandbox by default"; else fail "default ~/.ssh read: $out $err"; fi
run OMP_SANDBOX_EXTRA_WRITE='~/.sshx:~/.bashrc' -- x
if [ $rc = 78 ] && contains "$err" "OMP_SANDBOX_CONFIRM_SENSITIVE_WRITE=1"; then pass "EXTRA_WRITE=~/.bashrc refused (78)"; else fail "EXTRA_WRITE sensitive: $err"; fi
for e in rel/dir '/tmp/../etc' '~bob/x' "/nonexistent/a/b"; do
	run OMP_SANDBOX_EXTRA_READ="$e" -- x
	if [ $rc = 78 ]; then pass "EXTRA_READ '$e' refused (78)"; else fail "EXTRA_READ '$e' (rc=$rc): $err"; fi
done

# ---- the command ----
run PATH="$T/sys" -- x
if [ $rc = 127 ] && contains "$err" "'omp' not found on PATH"; then pass "omp not on PATH: error, 127"; else fail "omp missing (rc=$rc): $err"; fi
(cd "$T/bin" && out=$(/usr/bin/env -i PATH=".:$T/sys" HOME=$H "$OS" x 2>&1); [ $? = 127 ]) &&
	pass "a relative PATH entry is never searched" || fail "relative PATH entry"
cp "$PROBE" "$H/bin/omp"
run PATH="$H/bin:/usr/bin:/bin" OMP_SANDBOX_TOOLS=none -- x
if [ $rc = 78 ] && contains "$err" "denies reading" && contains "$err" "OMP_SANDBOX_EXTRA_READ=$H/bin"; then
	pass "omp under the read-denied home: refused before launch, naming OMP_SANDBOX_EXTRA_READ"
else fail "omp under HOME (rc=$rc): $err"; fi
run PATH="$H/bin:/usr/bin:/bin" -- --exit=0
if [ $rc = 0 ] && has "$out" "argv[0]=$H/bin/omp"; then pass "omp in ~/bin runs with the presets (local)"; else fail "omp in ~/bin with the presets (rc=$rc): $err"; fi
run PATH="$H/bin:/usr/bin:/bin" OMP_SANDBOX_TOOLS=none OMP_SANDBOX_EXTRA_READ="$H/bin" -- --exit=0
if [ $rc = 0 ] && has "$out" "argv[0]=$H/bin/omp"; then pass "... and runs with that variable set"; else fail "omp under HOME with EXTRA_READ (rc=$rc): $err"; fi

# ---- flags ----
run -- --print-profile
if [ $rc = 0 ] && has "$out" "(version 1)" && has "$out" "(deny file-read* (subpath \"$H\"))" && contains "$out" "(subpath \"$H/proj\")" && ! contains "$out" "(param" && ! contains "$out" "argv["; then
	pass "--print-profile prints the profile with its paths bound, launches nothing"
else fail "--print-profile (rc=$rc): $out $err"; fi
run OMP_SANDBOX_EXTRA_READ='~/proj/sub' -- --print-profile
if contains "$out" "(subpath \"$H/proj/sub\")"; then pass "--print-profile includes the extras"; else fail "print extras: $out"; fi
run OMP_SANDBOX_EXTRA_READ='~/.ssh' OMP_SANDBOX_CONFIRM_SENSITIVE_READ=1 -- --print-profile
if contains "$out" "(subpath \"$H/.ssh\")"; then pass "--print-profile with a confirmed ~/.ssh shows (subpath \"HOME/.ssh\") (the original's self-test)"; else fail "print 13b: $out"; fi
# The printed profile decides like the original's (docs/migration.md, R1-R8) under sbc explain.
mkdir -p "$H/a/b"
WS=$H/a/b run OMP_SANDBOX_TOOLS=none -- --print-profile
echo "$out" > "$T/printed.sb"
if [ -x "$B/bin/sbc" ]; then
	bad=""
	while read -r want op path; do
		got=$("$B/bin/sbc" explain --sample "$T/printed.sb" --op "$op" --path "$path" 2>/dev/null | head -1 | cut -d: -f1)
		[ "$got" = "$want" ] || bad="$bad [$op $path: $got, want $want]"
	done <<-EOF
	allow write $H/a/b/x
	allow read $H/a/b/x
	allow write $H/.omp/agent.db
	deny write $H/x
	deny read $H/.ssh/id_rsa
	deny read $H/.gitconfig
	allow stat $H
	deny list $H
	allow stat $H/a
	deny list $H/a
	deny write /etc/passwd
	allow read /etc/passwd
	allow write /dev/null
	EOF
	[ -z "$bad" ] && pass "--print-profile decides like the original's profile (sbc explain, 13 cases)" || fail "print-profile decisions:$bad"
else
	skip "sbc not built: decisions of --print-profile"
fi
run -- --model x --print-profile
if has "$out" "argv[3]=--print-profile"; then pass "only the first argument is examined"; else fail "first argument: $out"; fi
run -- --help
if has "$out" "argv[1]=--help"; then pass "--help is forwarded to omp (drop-in)"; else fail "--help: $out"; fi
run -- --sandbox-version
if [ $rc = 0 ] && contains "$out" "omp-sandboxed "; then pass "--sandbox-version"; else fail "--sandbox-version: $out"; fi
run -- --sandbox-help
if [ $rc = 0 ] && contains "$out" "usage: omp-sandboxed"; then pass "--sandbox-help"; else fail "--sandbox-help: $out"; fi

# ---- tamper check ----
cp "$OS" "$H/proj/omp-sandboxed"
BIN=$H/proj/omp-sandboxed run -- x
BIN=$OS
if contains "$err" "is writable inside the sandbox"; then pass "a launcher inside the workspace is reported as writable"; else fail "tamper: $err"; fi
rm -f "$H/proj/omp-sandboxed"
# ... but not one the sandboxed user cannot write: root's build under /tmp,
# launched by uid 65534 (the profile allows writing /tmp, the mode does not)
tb=$(mktemp -d /tmp/sbx-suite-os-bin.XXXXXX)
mkdir "$tb/bin" && ln -s /bin/true "$tb/bin/omp"
cp "$OS" "$tb/omp-sandboxed" && chmod 0755 "$tb" "$tb/omp-sandboxed"
mkdir -p /tmp/sbx-nobody-ws.$$ && chown 65534:65534 /tmp/sbx-nobody-ws.$$
nerr=$(cd /tmp/sbx-nobody-ws.$$ && /usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups \
	/usr/bin/env -i PATH="$tb/bin:/usr/bin:/bin" HOME=/home/nobody TERM=dumb \
	"$tb/omp-sandboxed" x 2>&1 >/dev/null)
nrc=$?
if [ $nrc = 0 ] && ! contains "$nerr" "is writable inside the sandbox"; then
	pass "root's build under /tmp launched by uid 65534: no tamper warning (it cannot write it)"
else fail "tamper as uid 65534 (rc=$nrc): $nerr"; fi
BIN=$tb/omp-sandboxed run -- x
if contains "$err" "$tb/omp-sandboxed is writable inside the sandbox"; then
	pass "the same build launched by its owner (root): the tamper warning"
else fail "tamper as owner: $err"; fi
rm -rf "$tb" /tmp/sbx-nobody-ws.$$

# ---- the ~/.npmrc note: only when it sets something npm inside misses ----
printf 'fund=false\naudit=false\n' > "$H/.npmrc"
run -- x
if [ $rc = 0 ] && ! contains "$err" "npmrc"; then pass "~/.npmrc without registry, auth or proxy settings: no note"; else fail "npmrc note without settings: $err"; fi
printf 'fund=false\n@corp:registry=https://npm.corp.invalid/\n' > "$H/.npmrc"
run -- x
if contains "$err" ".npmrc is not readable in the sandbox" && ! contains "$err" "corp.invalid"; then
	pass "~/.npmrc with a scope's registry: the note, and no value from the file"
else fail "npmrc note with a registry: $err"; fi
rm -f "$H/.npmrc"

# ---- nested ----
run OMP_SANDBOX=landlock -- --exit=0
if [ $rc = 0 ] && contains "$err" "already inside a sandbox"; then pass "Linux: a nested launch stacks a layer and says so"; else fail "nested linux (rc=$rc): $err"; fi

# ---- macOS form through the stand-in (test build) ----
BIN=$OST
touch "$T/marker"
run SB_TEST_PLATFORM=macos OMP_SANDBOX_YOLO=1 OMP_SANDBOX_EXTRA_READ='~/proj/sub' -- a --exit=5
rec=$H/proj/fake-sandbox-exec.rec
# (/tmp is shared with other test runs: look for the original's temp-profile
# name there, and for any new file in the throwaway home.)
left=$(find /tmp -maxdepth 1 -newer "$T/marker" -name 'omp-sandbox*' 2>/dev/null
	find "$H" -newer "$T/marker" -type f ! -name fake-sandbox-exec.rec 2>/dev/null)
if [ $rc = 5 ] && [ -f "$rec" ] && has "$(cat "$rec")" "argv[1]=-p" && has "$(cat "$rec")" "define=HOME=$H" &&
	has "$(cat "$rec")" "define=EXTRA_READ_1=$H/proj/sub" && has "$(cat "$rec")" "command=$T/bin/omp" &&
	has "$(cat "$rec")" "env=OMP_SANDBOX=seatbelt" && has "$out" "argv[1]=--auto-approve"; then
	pass "macOS: sandbox-exec -p TEXT -D ... omp --auto-approve ARGS, seatbelt markers, status returned"
else fail "macOS form (rc=$rc): $(cat "$rec" 2>/dev/null | head -20) $err"; fi
if [ -f "$rec" ] && ! sed -n '/^profile:$/,$p' "$rec" | grep -qF "$H"; then pass "macOS: the profile text is path-free (paths only in -D)"; else fail "macOS profile has paths"; fi
[ -z "$left" ] && pass "macOS: no temporary profile file left behind" || fail "macOS: temp files left: $left"
rm -f "$rec"
run SB_TEST_PLATFORM=macos OMP_SANDBOX=seatbelt -- x
if [ $rc = 78 ] && contains "$err" "already inside a sandbox"; then pass "macOS: an already-sandboxed parent refused in plain words (78)"; else fail "macOS nested (rc=$rc): $err"; fi

# ---- fail closed (test build: a Landlock step made to fail) ----
run SB_TEST_LL_FAIL=restrict -- --exit=0
if [ $rc = 78 ] && ! has "$out" "argv[0]=$T/bin/omp" && contains "$err" "error"; then
	pass "Landlock restrict failing: refused (78), the command never runs"
else fail "fail closed (rc=$rc): $out $err"; fi
run SB_TEST_LL_FAIL=restrict -- --self-test
nfailed=$(grep -c '^FAIL' <<<"$out")
if [ $rc = 1 ] && ! grep -q '^PASS: .*denied' <<<"$out" && grep -q 'the sandbox did not start' <<<"$out"; then
	pass "self-test with a sandbox that does not start: no deny check passes ($nfailed FAIL)"
else fail "self-test vacuity (rc=$rc): $(grep '^PASS' <<<"$out")"; fi
BIN=$OS

# ---- self-test and the real omp ----
if ompdir=$("$root/tests/lib/install-omp.sh" 2>"$T/install.err"); then
	out=$(cd "$H/proj" && /usr/bin/env -i PATH="$ompdir:/usr/bin:/bin" HOME=$H "$OS" --version 2>"$T/err")
	rc=$?
	if [ $rc = 0 ] && grep -q '^omp/[0-9]' <<<"$out"; then pass "real omp --version under the sandbox, clean env: $out"; else fail "real omp (rc=$rc): $out $(cat "$T/err")"; fi
	out=$(cd "$H/proj" && /usr/bin/env -i PATH="$ompdir:/usr/bin:/bin" HOME=$H "$OS" --self-test 2>"$T/err")
	rc=$?
	if [ $rc = 0 ] && ! grep -q '^FAIL' <<<"$out"; then pass "omp-sandboxed --self-test passes ($(grep -c '^PASS' <<<"$out") checks)"; else fail "self-test (rc=$rc): $(grep -v '^PASS' <<<"$out") $(cat "$T/err")"; fi
	# D12: omp (and bun) installed under the home, as npm -g / bun install -g do.
	# A bind mount of the install stands in for a copy (749 MB).
	mkdir -p "$H/.npm-global"
	if mount --bind "$(dirname "$(dirname "$ompdir")")" "$H/.npm-global" 2>/dev/null; then
		hp="$H/.npm-global/node_modules/.bin:/usr/bin:/bin"
		out=$(cd "$H/proj" && /usr/bin/env -i PATH="$hp" HOME=$H OMP_SANDBOX_TOOLS=none "$OS" --version 2>"$T/err")
		rc=$?
		if [ $rc = 78 ] && grep -q "OMP_SANDBOX_EXTRA_READ=$H/.npm-global" "$T/err"; then
			pass "real omp installed under the home: refused before launch, naming OMP_SANDBOX_EXTRA_READ=~/.npm-global"
		else fail "omp under the home (rc=$rc): $(cat "$T/err")"; fi
		out=$(cd "$H/proj" && /usr/bin/env -i PATH="$hp" HOME=$H OMP_SANDBOX_TOOLS=none OMP_SANDBOX_EXTRA_READ="$H/.npm-global" "$OS" --version 2>"$T/err")
		rc=$?
		if [ $rc = 0 ] && grep -q '^omp/[0-9]' <<<"$out"; then pass "... and runs with it: $out"; else fail "omp under the home with EXTRA_READ (rc=$rc): $out $(cat "$T/err")"; fi
		umount "$H/.npm-global"
	else
		skip "bind mount of the omp install into the home"
	fi
	# the same, unprivileged (Landlock needs no privilege; no_new_privs path)
	mkdir -p /home/nobody/proj && chown 65534:65534 /home/nobody/proj
	out=$(cd /home/nobody/proj && /usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups \
		/usr/bin/env -i PATH="$ompdir:/usr/bin:/bin" HOME=/home/nobody "$OS" --self-test 2>"$T/err")
	rc=$?
	if [ $rc = 0 ] && ! grep -q '^FAIL' <<<"$out"; then pass "omp-sandboxed --self-test passes as uid 65534"; else fail "self-test as nobody (rc=$rc): $(grep -v '^PASS' <<<"$out") $(cat "$T/err")"; fi
else
	skip "real omp: $(tail -1 "$T/install.err")"
fi
out=$(cd "$H/proj" && /usr/bin/env -i PATH="$T/bin:/usr/bin:/bin" HOME=$H "$OS" --self-test 2>&1)
rc=$?
if [ $rc = 1 ] && grep -q '^FAIL: omp --version' <<<"$out"; then pass "a failing self-test check exits 1"; else fail "self-test failure status (rc=$rc)"; fi
[ -d "$H/.omp" ] && [ "$(stat -c %a "$H/.omp")" = 700 ] && pass "~/.omp created 0700 before the launch" || fail "~/.omp mode"

echo "omp-sandboxed: $npass passed, $nfail failed, $nskip skipped"
[ $nfail = 0 ]
