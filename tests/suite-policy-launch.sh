#!/usr/bin/env bash
# suite-policy-launch.sh: sbrun given a policy (.sbx) instead of a compiled
# profile (compiled in-process with sbc's checks), and the launchers'
# messages a newcomer meets first: a missing command path, refusals at
# --print-profile identical to the launch's, -D of an unused param.  Run for
# real under Landlock with a throwaway home (tests/lib/fakehome.sh), with
# git doing real work inside the sandbox.  Exit 0 pass, 77 skip, 1 fail.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-build}
case $B in /*) ;; *) B=$root/$B ;; esac
if [ "${SBX_SUITE_INSIDE:-}" != 1 ]; then
	exec /usr/bin/env SBX_SUITE_INSIDE=1 B="$B" "$root/tests/lib/fakehome.sh" -- \
		/bin/bash "$root/tests/suite-policy-launch.sh"
fi

SB=$B/bin/sbrun
OMP=$B/bin/omp-sandboxed
SBC=$B/bin/sbc
for f in "$SB" "$OMP" "$SBC"; do
	[ -x "$f" ] || { echo "SKIP: $f not built"; exit 77; }
done
H=/home/tester
# Policies and the fake omp live outside every writable root (no tamper
# warnings in the compared messages).
T=$(mktemp -d /var/tmp/sbx-suite-policy.XXXXXX)
trap 'rm -rf "$T"' EXIT
chmod 755 "$T"
mkdir -p "$H/proj" "$H/.ssh" "$H/.omp" "$T/bin"
echo secret > "$H/.ssh/id_rsa"
printf '#!/bin/sh\necho "fake omp $*"\n' > "$T/bin/omp"
chmod 755 "$T/bin/omp"
cat > "$T/dev.sbx" <<'EOF'
default allow;
deny write;
allow write workspace tmpdir /dev;
allow write ~/.omp acknowledge sensitive "omp writes its config root";
deny read home;
allow read ~/.omp workspace;
allow stat-only exactly home;
allow read $CACHE;
EOF
mkdir -p "$T/cache" && echo cached > "$T/cache/c.txt"

npass=0 nfail=0
pass() { echo "PASS: $*"; npass=$((npass + 1)); }
fail() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
run() {
	local vars=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do vars+=("$1"); shift; done
	shift
	out=$(cd "$H/proj" && /usr/bin/env -i PATH="$T/bin:/usr/bin:/bin" HOME=$H TERM=dumb \
		"${vars[@]}" "$@" 2>"$T/err")
	rc=$?
	err=$(cat "$T/err")
}
contains() { grep -qF -- "$2" <<<"$1"; }
ok() { # DESC CONDITION...
	local d=$1; shift
	if "$@"; then pass "$d"; else fail "$d (exit $rc; out: ${out:0:300}; err: ${err:0:400})"; fi
}

# ---- a policy where a profile is expected ----
run -- "$SB" -D CACHE="$T/cache" "$T/dev.sbx" -- /bin/sh -c \
	'git init -q . && git config user.email t@e && git config user.name t &&
	 echo hi > f && git add f && git commit -qm one && git log --oneline | wc -l &&
	 cat '"$T/cache/c.txt"
ok "sbrun POLICY.sbx: git init/commit in the workspace under the compiled policy" eval \
	'[ $rc = 0 ] && contains "$out" "cached" && [ -d "$H/proj/.git" ] && [ "$(git -C "$H/proj" log --oneline | wc -l)" = 1 ]'
ok "no warning for a -D the policy uses" eval '! contains "$err" "unused-define"'
run -- "$SB" -D CACHE="$T/cache" "$T/dev.sbx" -- /bin/cat "$H/.ssh/id_rsa"
ok "the policy is enforced: ~/.ssh is not readable" eval '[ $rc != 0 ] && ! contains "$out" secret'
run -- "$SB" -D CACHE="$T/cache" "$T/dev.sbx" -- /bin/sh -c "echo x > $H/outside"
ok "the policy is enforced: no write outside the roots" eval '[ $rc != 0 ] && [ ! -e "$H/outside" ]'

"$SBC" -D CACHE="$T/cache" -o "$T/dev.sb" "$T/dev.sbx" 2>/dev/null
run -- "$SB" -D CACHE="$T/cache" --print-profile "$T/dev.sbx"
pol_print=$out
run -- "$SB" --print-profile "$T/dev.sb"
ok "--print-profile of the policy equals that of the profile sbc compiles from it" eval \
	'[ $rc = 0 ] && [ -n "$pol_print" ] && [ "$(grep -v "^;" <<<"$pol_print")" = "$(grep -v "^;" <<<"$out")" ]'

run -- "$SB" "$T/dev.sbx" -- /bin/touch "$H/proj/ran"
ok "a policy error (unbound \$CACHE) refuses the launch (78), located, as sbc says it" eval \
	'[ $rc = 78 ] && [ ! -e "$H/proj/ran" ] && contains "$err" "$T/dev.sbx:8:12: error: undefined name \$CACHE" && contains "$err" "cannot use the policy"'
sbc_err=$("$SBC" --check "$T/dev.sbx" 2>&1 | head -1)
ok "the launch's diagnostic is sbc's, word for word" eval 'contains "$err" "$sbc_err"'
printf 'default allow;\ndeny read home;\ndeny write home;\nallow write caches/npm;\n' > "$T/rel.sbx"
run -- "$SB" "$T/rel.sbx" -- /bin/true
ok "a relative path in a policy: located error saying what a path is" eval \
	'[ $rc = 78 ] && contains "$err" "$T/rel.sbx:4:13: error: relative path '"'"'caches/npm'"'"': paths are absolute, \`~/...\` or one of the roots (home, workspace, tmpdir)"'
cp "$T/dev.sbx" "$T/dev.txt"
run -- "$SB" "$T/dev.txt" -- /bin/true
ok "a policy under another name: the refusal says how a policy is recognised" eval \
	'[ $rc = 78 ] && contains "$err" "a policy is read when its name ends in .sbx"'

# ---- -D of an unused param ----
run -- "$SB" -D CACHE="$T/cache" -D CAHCE=/x "$T/dev.sbx" -- /bin/true
ok "-D of a name the policy never uses: a warning naming it, the launch goes on" eval \
	'[ $rc = 0 ] && contains "$err" "warning: -D CAHCE: $T/dev.sbx never uses \$CAHCE"'
printf '(version 1)\n(allow default)\n(deny file-read* (subpath (param "CACHE")))\n' > "$T/cache.sb"
run -- "$SB" -D CACHE="$T/cache" -D CAHCE=/x "$T/cache.sb" -- /bin/true
ok "-D of a param the profile never uses: a warning listing its params" eval \
	'[ $rc = 0 ] && contains "$err" "warning: -D CAHCE: the profile has no param CAHCE" && contains "$err" "params: CACHE"'
run -- "$SB" -D CACHE="$T/cache" "$T/cache.sb" -- /bin/true
ok "no warning for a -D the profile uses" eval '[ $rc = 0 ] && ! contains "$err" "unused-define"'

# ---- the command given by path ----
run -- "$SB" "$T/dev.sb" -- /no/such/tool
ok "an absolute command path that does not exist: 'no such file' (127), not 'PATH'" eval \
	'[ $rc = 127 ] && contains "$err" "'"'"'/no/such/tool'"'"': no such file" && ! contains "$err" "not found on PATH"'
run -- "$SB" "$T/dev.sb" -- ./missing
ok "a relative command path: 'no such file' too" eval \
	'[ $rc = 127 ] && contains "$err" "'"'"'./missing'"'"': no such file" && ! contains "$err" "not found on PATH"'
run -- "$SB" "$T/dev.sb" -- /tmp
ok "a directory as the command: 126, said so" eval '[ $rc = 126 ] && contains "$err" "is a directory"'
run -- "$SB" "$T/dev.sb" -- no-such-tool-anywhere
ok "a bare name still says 'not found on PATH' (127)" eval '[ $rc = 127 ] && contains "$err" "not found on PATH"'

# ---- --print-profile refuses what the launch refuses, in the same words ----
for tool in sbrun omp-sandboxed; do
	if [ $tool = sbrun ]; then l=("$SB" "$T/dev.sb" /bin/true); p=("$SB" --print-profile "$T/dev.sb"); pl=("$SB" --plan "$T/dev.sb")
	else l=("$OMP" x); p=("$OMP" --print-profile); pl=(); fi
	run OMP_SANDBOX_PASS_ENV=GOOD:BAD-NAME -- "${l[@]}"
	lrc=$rc lerr=$err
	run OMP_SANDBOX_PASS_ENV=GOOD:BAD-NAME -- "${p[@]}"
	ok "$tool: OMP_SANDBOX_PASS_ENV=BAD-NAME refused at --print-profile as at the launch (78, same message)" eval \
		'[ $lrc = 78 ] && [ $rc = 78 ] && [ -z "$out" ] && contains "$err" "'"'"'BAD-NAME'"'"' is not a valid variable name" && [ "$err" = "$lerr" ]'
	if [ ${#pl[@]} -gt 0 ]; then
		run OMP_SANDBOX_PASS_ENV=BAD-NAME -- "${pl[@]}"
		ok "$tool: the same refusal at --plan" eval '[ $rc = 78 ] && [ "$err" = "$lerr" ]'
	fi
done
run OMP_SANDBOX_PASS_ENV=GOOD -- "$OMP" --print-profile
ok "omp-sandboxed --print-profile with a valid PASS_ENV still prints the profile" eval \
	'[ $rc = 0 ] && contains "$out" "(version 1)"'

echo "policy-launch: $npass passed, $nfail failed"
[ $nfail = 0 ]
