#!/usr/bin/env bash
# A home under /var (Fedora Silverblue's /var/home, or any /tmp, /var, /etc
# home) must stay protected.  Seatbelt and decide() see those trees as
# /private/...; the launcher binds values in that form and the Linux plan
# maps them back.  Regression: bound as typed, the home deny never matched
# and ~/.ssh was readable.  Runs in a private mount namespace; the real home
# and /etc/passwd are never touched.
set -uo pipefail
cd "$(dirname "$0")/.."
B=${B:-build}
root=$PWD
if [ "${SBX_VARHOME_INSIDE:-}" != 1 ]; then
	if [ "$(id -u)" != 0 ] || ! /usr/bin/unshare -m --propagation private /bin/true 2>/dev/null; then
		echo "SKIP: a private mount namespace needs root (unshare -m)"
		exit 77
	fi
	if ! "$B/bin/sbrun" --doctor >/dev/null 2>&1; then
		echo "SKIP: Landlock is not usable on this kernel (sbrun --doctor)"
		exit 77
	fi
	exec /usr/bin/env SBX_VARHOME_INSIDE=1 /usr/bin/unshare -m --propagation private /bin/bash "$0" "$@"
fi
fail=0
pass() { echo "PASS: $*"; }
failed() { echo "FAIL: $*"; fail=1; }
mkdir -p /var/sbx-varhome && mount -t tmpfs tmpfs /var/sbx-varhome || { echo "SKIP: cannot mount a tmpfs under /var"; exit 77; }
H=/var/sbx-varhome/tester
mkdir -p "$H/.ssh" "$H/.omp" "$H/proj"
echo CANARY-VARHOME > "$H/.ssh/id_rsa"
sed "s|^root:x:0:0:[^:]*:[^:]*:|root:x:0:0:root:$H:|" /etc/passwd > /var/sbx-varhome/passwd
mount --bind /var/sbx-varhome/passwd /etc/passwd
cd "$H/proj"
export HOME=$H
out=$("$root/$B/bin/sbrun" "$root/$B/gen/omp.sb" -- /bin/cat "$H/.ssh/id_rsa" 2>/dev/null)
case $out in
*CANARY-VARHOME*) failed "home under /var: ~/.ssh/id_rsa readable in the sandbox" ;;
*) pass "home under /var: ~/.ssh/id_rsa denied" ;;
esac
if "$root/$B/bin/sbrun" "$root/$B/gen/omp.sb" -- /bin/sh -c "echo ok > '$H/proj/f'" 2>/dev/null &&
	[ "$(cat "$H/proj/f" 2>/dev/null)" = ok ]; then
	pass "home under /var: the workspace inside it is writable"
else
	failed "home under /var: the workspace inside it is not writable"
fi
if "$root/$B/bin/sbrun" "$root/$B/gen/omp.sb" -- /bin/sh -c "echo x > '$H/new'" 2>/dev/null; then
	failed "home under /var: writing directly in the home is allowed"
else
	pass "home under /var: writing directly in the home is denied"
fi
# read the whole output first: grep -q stops early, and under pipefail
# sbrun's SIGPIPE would fail the pipeline
launch=$("$root/$B/bin/sbrun" --print-launch "$root/$B/gen/omp.sb" 2>/dev/null)
if grep -q -- "-D HOME=/private$H" <<<"$launch"; then
	pass "the launch binds the home in its /private form"
else
	failed "the launch does not bind the /private form of the home"
fi
exit $fail
