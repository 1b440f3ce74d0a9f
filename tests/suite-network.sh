#!/usr/bin/env bash
# `network off` on Linux: Landlock has no right for it, so sbrun refuses
# socket() for every address family with seccomp (socketpair stays allowed).
# The network-off example must run, deny sockets, and keep file rules; the
# default omp policy must keep the network open (control).
set -uo pipefail
cd "$(dirname "$0")/.."
B=${B:-build}
root=$PWD
if [ "${SBX_NET_INSIDE:-}" != 1 ]; then
	if [ "$(id -u)" != 0 ] || ! /usr/bin/unshare -m --propagation private /bin/true 2>/dev/null; then
		echo "SKIP: a private mount namespace needs root (unshare -m)"
		exit 77
	fi
	if ! "$B/bin/sbrun" --doctor >/dev/null 2>&1; then
		echo "SKIP: Landlock is not usable on this kernel (sbrun --doctor)"
		exit 77
	fi
	exec "$root/tests/lib/fakehome.sh" -- /usr/bin/env SBX_NET_INSIDE=1 B="$B" /bin/bash "$root/tests/suite-network.sh" "$@"
fi
fail=0
pass() { echo "PASS: $*"; }
failed() { echo "FAIL: $*"; fail=1; }
tmp=$(mktemp -d /tmp/sbx-net.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
"$root/$B/bin/sbc" -o "$tmp/offline.sb" "$root/examples/omp-offline.sbx" || { echo "FAIL: compile omp-offline.sbx"; exit 1; }
mkdir -p "$HOME/.omp" "$HOME/proj"
cd "$HOME/proj"
probe=$root/$B/test-bin/probe
run() { "$root/$B/bin/sbrun" "$1" -- "$probe" "$2" "${3:-/}" 2>/dev/null; }
out=$(run "$tmp/offline.sb" socket_inet)
[ "$out" = EPERM ] && pass "network off: socket(AF_INET) refused ($out)" || failed "network off: socket(AF_INET) gave '$out', want EPERM"
out=$(run "$tmp/offline.sb" socket_unix)
[ "$out" = EPERM ] && pass "network off: socket(AF_UNIX) refused ($out)" || failed "network off: socket(AF_UNIX) gave '$out', want EPERM"
out=$(run "$tmp/offline.sb" create "$HOME/proj")
[ "$out" = OK ] && pass "network off: workspace still writable" || failed "network off: workspace create gave '$out'"
out=$(run "$tmp/offline.sb" read "$HOME/.ssh/nothing")
case $out in EACCES|ENOENT) pass "network off: home still read-denied ($out)" ;; *) failed "network off: home read gave '$out'" ;; esac
out=$(run "$root/$B/gen/omp.sb" socket_inet)
[ "$out" = OK ] && pass "network on (omp.sbx): socket(AF_INET) works (control)" || failed "network on: socket(AF_INET) gave '$out'"
# the whole plan first: grep -q may stop reading early (SIGPIPE under pipefail)
plan=$("$root/$B/bin/sbrun" --plan "$tmp/offline.sb" 2>/dev/null)
if grep -q "socket(any family) -> EPERM" <<<"$plan"; then
	pass "--plan shows the socket refusal"
else
	failed "--plan does not show the socket refusal"
fi
exit $fail
