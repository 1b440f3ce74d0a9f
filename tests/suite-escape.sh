#!/usr/bin/env bash
# Escape suite: every tests/escape/NN-*.sh technique runs inside `sbrun`
# with the default omp profile ($B/gen/omp.sb), as root and as an
# unprivileged user, each with a fresh throwaway home holding canaries
# (~/.ssh/id_rsa, ~/.aws/credentials, ~/notes.txt and a secret in the
# parent environment), in a private mount namespace: tmpfs on /home and
# /mnt, and a copy of /etc/passwd bind-mounted over the real one so the
# user database names the throwaway home (sbrun takes the home from
# getpwuid; the real /root is never touched).
#
# A technique "blocked" passes when the inside ran, every control worked,
# no attempt succeeded ("ESCAPED:"), no canary token appears in the output
# or in the workspace, no PWNED* file appeared outside the writable roots,
# and verify() (if any) agrees.  A "limitation" passes when, in addition to
# the same checks, the documented behaviour was observed.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
B=${B:-build}
case $B in /*) ;; *) B=$ROOT/$B ;; esac
SBRUN=$B/bin/sbrun
PROFILE=$B/gen/omp.sb
PROBE=$B/test-bin/escape_probe
LIB=$ROOT/tests/escape/lib.sh
ONLY=${ESCAPE_ONLY:-}          # run only techniques whose file name matches (a regex)
# ESCAPE_ABI=N emulates Landlock ABI N (the test build's SB_TEST_LL_ABI knob);
# ESCAPE_IDS="root" limits the identities (default: root user)
IDS=${ESCAPE_IDS:-root user}
if [ -n "${ESCAPE_ABI:-}" ]; then
	SBRUN=$B/test-bin/sbrun
	ABI_ENV=(SB_TEST_LL_ABI="$ESCAPE_ABI")
else
	ABI_ENV=()
fi
# ESCAPE_VERBOSE=1 prints every technique's evidence, not only failures

if [ -z "${SBX_ESC_IN_NS:-}" ]; then
	for f in "$SBRUN" "$PROFILE" "$PROBE"; do
		[ -e "$f" ] || { echo "SKIP: $f not built"; exit 77; }
	done
	[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root for a private mount namespace"; exit 77; }
	command -v unshare >/dev/null || { echo "SKIP: unshare missing"; exit 77; }
	command -v setpriv >/dev/null || { echo "SKIP: setpriv missing"; exit 77; }
	SBX_ESC_IN_NS=1 exec unshare -m --propagation private bash "$0" "$@"
	echo "SKIP: cannot create a private mount namespace"
	exit 77
fi

# ---- inside the private mount namespace ----
# The effective Landlock ABI the techniques run at (the kernel's, or the
# emulated one): techniques that depend on it read $SBX_ESC_ABI.
kabi=$("$SBRUN" --doctor 2>/dev/null | sed -n 's/^landlock: kernel ABI \([0-9]*\).*/\1/p')
SBX_ESC_ABI=${kabi:-0}
[ -n "${ESCAPE_ABI:-}" ] && [ "$ESCAPE_ABI" -lt "$SBX_ESC_ABI" ] && SBX_ESC_ABI=$ESCAPE_ABI
[ "$SBX_ESC_ABI" -gt 7 ] && SBX_ESC_ABI=7
export SBX_ESC_ABI
mount -t tmpfs -o mode=0755 tmpfs /home || { echo "SKIP: cannot mount tmpfs on /home"; exit 77; }
mount -t tmpfs -o mode=0755 tmpfs /mnt || { echo "SKIP: cannot mount tmpfs on /mnt"; exit 77; }
S=/mnt/.esc          # driver state: outside every sandbox write grant
mkdir -p "$S"
chmod 0700 "$S"
USER_UID=65534
USER_GID=65534
awk -F: -v OFS=: -v u="$USER_UID" '
	$3 == 0 { $6 = "/home/root-esc" }
	$3 == u { $6 = "/home/user-esc" }
	{ print }' /etc/passwd >"$S/passwd"
chmod 0644 "$S/passwd"
mount --bind "$S/passwd" /etc/passwd || { echo "SKIP: cannot bind the passwd copy"; exit 77; }
# the build tree must be reachable by the unprivileged user
can_user=1
setpriv --reuid=$USER_UID --regid=$USER_GID --clear-groups -- test -x "$SBRUN" -a -r "$PROFILE" \
	-a -x "$PROBE" -a -r "$LIB" || can_user=0

OUTSIDE_PIDS=()
cleanup_run() {
	for p in "${OUTSIDE_PIDS[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${OUTSIDE_PIDS[@]}"; do wait "$p" 2>/dev/null; done
	OUTSIDE_PIDS=()
	while read -r m; do umount -l "$m" 2>/dev/null; done < <(awk '$2 ~ /^\/mnt\/esc-/ {print $2}' /proc/self/mounts)
}
trap cleanup_run EXIT

# as_id CMD...: run CMD as the identity under test (outside the sandbox).
as_id() {
	if [ "$ID" = user ]; then
		setpriv --reuid=$USER_UID --regid=$USER_GID --clear-groups -- "$@"
	else
		"$@"
	fi
}

# spawn_outside CMD...: a process outside the sandbox, as the same identity;
# its pid in $OUT_PID (also passed inside).
spawn_outside() {
	# a simple command in the background, so $! is the process itself
	# (setpriv execs), not a subshell
	if [ "$ID" = user ]; then
		setpriv --reuid=$USER_UID --regid=$USER_GID --clear-groups -- "$@" &
	else
		"$@" &
	fi
	OUT_PID=$!
	OUTSIDE_PIDS+=("$OUT_PID")
	pass_var OUT_PID "$OUT_PID"
	sleep 0.2
}

# pass_var NAME VALUE: make NAME=VALUE visible to inside().
pass_var() {
	PREFIX+="$1=$(printf '%q' "$2"); "
}

# The command line that runs inside() under sbrun.
inside_cmd() {
	local script="PROBE=$(printf '%q' "$PROBE"); SBX_ESC_ABI=$SBX_ESC_ABI; MECH=$MECH; ${PREFIX} . $(printf '%q' "$LIB"); . $(printf '%q' "$TEST"); echo SBX-INSIDE-RAN; inside"
	INSIDE=("$SBRUN" --mechanism "$MECH" "$PROFILE" -- /bin/bash --noprofile --norc -c "$script")
}

# run_inside [NAME=VALUE...]: launch with a minimal parent environment plus
# the given variables, as the identity, from the current directory.
run_inside() {
	inside_cmd
	local ids=()
	[ "$ID" = user ] && ids=(setpriv --reuid=$USER_UID --regid=$USER_GID --clear-groups --)
	timeout 60 "${ids[@]}" env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$H" TERM=dumb LANG=C \
		OMP_SANDBOX_WORKSPACE="$H/proj" SBX_PARENT_SECRET="$TOK-parentenv" "${ABI_ENV[@]}" "$@" "${INSIDE[@]}" \
		</dev/null >>"$OUT" 2>&1
	echo "SBX-LAUNCH-EXIT: $?" >>"$OUT"
}

# run_inside_pty [NAME=VALUE...]: the same under a fresh pseudo-terminal.
run_inside_pty() {
	inside_cmd
	local ids=()
	[ "$ID" = user ] && ids=(setpriv --reuid=$USER_UID --regid=$USER_GID --clear-groups --)
	local cmd
	cmd=$(printf '%q ' env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$H" TERM=dumb LANG=C \
		OMP_SANDBOX_WORKSPACE="$H/proj" "${ABI_ENV[@]}" "$@" "${INSIDE[@]}")
	timeout 60 "${ids[@]}" script -qec "$cmd" /dev/null </dev/null >>"$OUT" 2>&1
	echo "SBX-LAUNCH-EXIT: $?" >>"$OUT"
}

make_home() {
	local owner=$1
	rm -rf "$H"
	mkdir -p "$H/.ssh" "$H/.aws" "$H/.omp/agent" "$H/proj/src"
	printf -- '-----BEGIN OPENSSH PRIVATE KEY-----\n%s-ssh\n' "$TOK" >"$H/.ssh/id_rsa"
	printf '[default]\naws_secret_access_key = %s-aws\n' "$TOK" >"$H/.aws/credentials"
	printf 'private notes %s-notes\n' "$TOK" >"$H/notes.txt"
	printf 'workspace file\n' >"$H/proj/readme.txt"
	printf 'omp config\n' >"$H/.omp/agent/config.yml"
	chmod 0700 "$H" "$H/.ssh" "$H/.aws" "$H/.omp"
	chmod 0600 "$H/.ssh/id_rsa" "$H/.aws/credentials"
	chown -R "$owner" "$H"
}

# Evidence of a write outside the writable roots.
pwned_files() {
	find /home /mnt -name 'PWNED*' 2>/dev/null | grep -v -e "^$H/proj" -e "^$H/\.omp" || true
}

npass=0 nfail=0 nskip=0
declare -A RESULT
report() {  # report ID NAME VERDICT DETAIL
	local line="$3: [$1${MECH:+, $MECH}] $2${4:+: $4}"
	echo "$line"
	case $3 in
	PASS) npass=$((npass + 1)); [ -n "${ESCAPE_VERBOSE:-}" ] && sed 's/^/    | /' "$OUT" ;;
	FAIL) nfail=$((nfail + 1)); sed 's/^/    | /' "$OUT" | head -40 ;;
	SKIP) nskip=$((nskip + 1)) ;;
	esac
	RESULT["$2/$1/${MECH:-}"]=$3
}

run_technique() {
	local name
	name=$(basename "$TEST" .sh)
	OUT=$S/out.$name.$ID
	: >"$OUT"
	TOK="SBX-CANARY-$RANDOM$RANDOM"
	PREFIX=""
	OUT_PID=""
	H=$HOMEDIR
	local owner=0:0
	[ "$ID" = user ] && owner=$USER_UID:$USER_GID
	make_home "$owner"
	find /home /mnt -name 'PWNED*' -delete 2>/dev/null
	(
		DESC="" EXPECT="" NO_INSIDE="" STEPS=""
		unset -f setup verify launch inside
		# shellcheck source=/dev/null
		. "$LIB"; . "$TEST"
		[ -n "$EXPECT" ] || { echo "no EXPECT in $TEST" >>"$OUT"; exit 3; }
		# every technique says how many steps it must reach (lib.sh: reached)
		[[ $STEPS =~ ^[1-9][0-9]*$ ]] || { echo "no STEPS=N in $TEST" >>"$OUT"; exit 3; }
		declare -F launch >/dev/null || launch() { run_inside; }
		cd "$H/proj" || exit 3
		if declare -F setup >/dev/null; then setup >>"$OUT" 2>&1 || { echo "SETUP-FAILED" >>"$OUT"; exit 3; }; fi
		launch
		sleep 0.1
		vrc=0
		if declare -F verify >/dev/null; then verify >>"$OUT" 2>&1; vrc=$?; fi
		cleanup_run
		cd /
		# verdict
		why=""
		if grep -q '^SBX-SKIP:' "$OUT"; then
			echo "SKIP $(grep -m1 '^SBX-SKIP:' "$OUT" | cut -d' ' -f2-)" >"$OUT.verdict"; exit 0
		fi
		if [ -z "$NO_INSIDE" ] && ! grep -q '^SBX-INSIDE-RAN' "$OUT"; then why="the sandboxed command did not run"; fi
		grep -q '^CONTROL-FAIL' "$OUT" && why="${why:+$why; }a control failed"
		nreached=$(grep -c '^[[:space:]]*REACHED:' "$OUT")
		[ "$nreached" -lt "$STEPS" ] &&
			why="${why:+$why; }reached $nreached of its $STEPS steps (it stopped before the check it describes)"
		grep -q '^ESCAPED:' "$OUT" && why="${why:+$why; }$(grep -m1 '^ESCAPED:' "$OUT")"
		grep -qF "$TOK" "$OUT" && why="${why:+$why; }a canary token reached the output"
		# files in the writable roots (old and current names; symlinks not followed)
		find -P "$H"/proj* "$H"/.omp* -type f -exec grep -qsF "$TOK" {} \; -print 2>/dev/null | grep -q . &&
			[ "$EXPECT" = blocked ] &&
			why="${why:+$why; }a canary token was copied into a writable root"
		p=$(pwned_files)
		[ -n "$p" ] && why="${why:+$why; }written outside the roots: $(echo $p)"
		[ "$vrc" -ne 0 ] && why="${why:+$why; }verify failed"
		if [ "$EXPECT" = limitation ] && ! grep -q '^LIMITATION-OBSERVED' "$OUT"; then
			why="${why:+$why; }the documented limitation was not observed (behaviour changed: update docs/limitations.md)"
		fi
		if [ -n "$why" ]; then
			echo "FAIL $why" >"$OUT.verdict"
		elif [ "$EXPECT" = limitation ]; then
			echo "PASS documented limitation: $(grep -m1 '^LIMITATION-OBSERVED' "$OUT" | cut -d' ' -f2-)" >"$OUT.verdict"
		else
			echo "PASS blocked: $DESC" >"$OUT.verdict"
		fi
	)
	local v
	v=$(cat "$OUT.verdict" 2>/dev/null || echo "FAIL the technique script failed")
	report "$ID" "$name" "${v%% *}" "${v#* }"
}

# ---- preflight: the sandbox must be effective, or nothing below means anything ----
ID=root HOMEDIR=/home/root-esc MECH=masks
H=$HOMEDIR TOK=SBX-CANARY-preflight
make_home 0:0
OUT=$S/preflight; : >"$OUT"; PREFIX=""
TEST=$ROOT/tests/escape/preflight.inc
(cd "$H/proj" && run_inside)
if grep -qiE 'landlock.*(not|unavailable|disabled|unsupported)' "$OUT" && ! grep -q '^SBX-INSIDE-RAN' "$OUT"; then
	echo "SKIP: Landlock is not available on this kernel"; sed 's/^/    | /' "$OUT" | head; exit 77
fi
if ! grep -q '^PREFLIGHT-OK' "$OUT"; then
	echo "FAIL: preflight: the sandbox is not effective (workspace read must work, ~/.ssh/id_rsa must be denied)"
	sed 's/^/    | /' "$OUT" | head -30
	exit 1
fi
echo "PASS: preflight: sandbox effective at Landlock ABI $SBX_ESC_ABI (workspace readable, ~/.ssh/id_rsa denied)"

# Both mechanisms (docs/linux.md): masks in a private mount namespace, and
# the complement expansion they fall back to.  Techniques see $MECH.
for MECH in ${SBX_ESC_MECHS:-masks complement}; do
export MECH
for ID in $IDS; do
	if [ "$ID" = user ] && [ "$can_user" -eq 0 ]; then
		echo "SKIP: [user] the build tree is not readable by uid $USER_UID"
		nskip=$((nskip + 1)); continue
	fi
	# masks need a user namespace for an unprivileged user: the kernel
	# refuses one inside a chroot (EPERM; a bare root made by debootstrap)
	# and where unprivileged user namespaces are switched off
	if [ "$ID" = user ] && [ "$MECH" = masks ] &&
		! why=$(setpriv --reuid=$USER_UID --regid=$USER_GID --clear-groups -- unshare -U -m /bin/true 2>&1); then
		echo "SKIP: [user, masks] uid $USER_UID cannot create a user namespace here (${why:-unshare -U failed}: a chroot, or unprivileged user namespaces off), so sbrun --mechanism masks refuses (78, suite-masks); the complement runs below"
		nskip=$((nskip + 1)); continue
	fi
	HOMEDIR=/home/$ID-esc
	for TEST in "$ROOT"/tests/escape/[0-9]*.sh; do
		[ -n "$ONLY" ] && [[ ! $(basename "$TEST") =~ $ONLY ]] && continue
		run_technique
	done
done
done

echo
echo "escape techniques at Landlock ABI $SBX_ESC_ABI: $npass passed, $nfail failed, $nskip skipped"
[ "$nfail" -eq 0 ]
