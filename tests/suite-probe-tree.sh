#!/usr/bin/env bash
# suite-probe-tree.sh - soundness: for several profiles and hundreds of
# (operation, path) pairs, the kernel under the Landlock plan must never
# allow what sb_eval_decide() denies.  Cases where the kernel is stricter are
# listed.  Runs as root in a private mount namespace (tmpfs /home, /mnt),
# once per mechanism: masks (private mount namespace) and the complement
# expansion.  With masks, no stricter case may lie in the workspace outside
# the denied paths themselves (the tree around a deny stays usable).
set -u
cd "$(dirname "$0")/.."
B=${B:-build}
ROOT=$PWD
PT=$ROOT/$B/test-bin/probe_tree
PROBE=$ROOT/$B/test-bin/probe
LLRUN=$ROOT/$B/test-bin/ll_run

if [ "${SB_PT_IN_NS:-}" != 1 ]; then
	for b in "$PT" "$PROBE" "$LLRUN"; do
		[ -x "$b" ] || { echo "FAIL: missing $b"; exit 1; }
	done
	if ! "$LLRUN" --doctor >/dev/null 2>&1; then
		[ "${SBRUN_TEST_REQUIRE_LANDLOCK:-}" = 1 ] && { echo "FAIL: Landlock unavailable"; exit 1; }
		echo "SKIP: Landlock unavailable"; exit 77
	fi
	if [ "$(id -u)" != 0 ]; then echo "SKIP: needs root for a private mount namespace"; exit 77; fi
	exec unshare -m --propagation private env SB_PT_IN_NS=1 B="$B" bash "$0" "$@"
fi

mount -t tmpfs -o mode=0755 tmpfs /home || exit 1
mount -t tmpfs -o mode=0755 tmpfs /mnt || exit 1
H=/home/alice
fixture() {
	mountpoint -q /mnt/alias && umount /mnt/alias
	rm -rf /home/* /mnt/*
	mkdir -p $H/.ssh/pub $H/.aws $H/.omp/sub $H/proj/{bin,locked,noexec,keep,nocreate,secret,secretary,sub/deep,.git/hooks} /home/bob
	for f in .ssh/id_rsa .ssh/pub/key.pub .aws/credentials notes.txt .gitconfig .omp/state \
		.omp/sub/x proj/main.c proj/locked/f proj/keep/f proj/nocreate/f proj/secret/f \
		proj/secretary/f proj/sub/deep/f proj/.git/config proj/.git/hooks/pre-commit proj/.env; do
		echo "canary $f" > $H/$f
	done
	# the names omp-protect-git.sbx protects: masks need existing paths (a
	# deny of a missing one narrows its directory, tests/suite-masks.sh)
	for f in .gitmodules .envrc .bashrc .bash_profile .zshrc .zshenv .zprofile .profile; do
		: > $H/proj/$f
	done
	cp /bin/true $H/proj/bin/true
	cp /bin/true $H/proj/noexec/true
	cp /bin/true $H/true
	echo bob > /home/bob/file
	echo ro > /mnt/ro.txt
	ln $H/.ssh/id_rsa /home/keylink
	if [ "$1" = alias ]; then
		mkdir /mnt/alias && mount --bind $H /mnt/alias   # a bind-mount alias of $HOME
	fi
}
fails=0
# the shipped examples, compiled by sbc (network denies are not enforceable on
# Linux: opted in here, the file rules are what this suite checks)
SBC=$ROOT/$B/bin/sbc
EX=$(mktemp -d /run/sb-probe-tree-XXXXXX)
trap 'rm -rf "$EX"' EXIT
for x in examples/*.sbx; do
	if [ -x "$SBC" ] && "$SBC" -o "$EX/$(basename "$x" .sbx).sb" "$x" 2>/dev/null; then :; else
		echo "FAIL: sbc could not compile $x"; fails=$((fails + 1))
	fi
done
# Landlock ABIs to emulate (test clamp); the kernel's own always runs.
# SB_TEST_ABIS="1 2" picks others; ABIs above the kernel's are skipped.
kabi=$("$LLRUN" --doctor | sed -n 's/^landlock: kernel ABI \([0-9]*\).*/\1/p')
ABIS=${SB_TEST_ABIS-1 2 3 4 6}   # set but empty: the kernel's ABI only
# SB_PT_EXAMPLES_ONLY=1: only the shipped examples (the VM suite, where TCG is slow)
specs=(tests/landlock/tree/*.llspec)
[ "${SB_PT_EXAMPLES_ONLY:-}" = 1 ] && specs=()
for mech in masks complement; do
# masks do not depend on the ABI: the kernel's and the lowest
[ $mech = masks ] && mabis="1" || mabis=$ABIS
[ -z "$ABIS" ] && mabis=""
for spec in "${specs[@]}" "$EX"/*.sb; do
for abi in $kabi $(tr " " "
" <<<"$mabis" | grep -vx "$kabi"); do
[ "$abi" -le "${kabi:-0}" ] || { echo "SKIP: $(basename "$spec") at ABI $abi: the kernel has ABI $kabi"; continue; }
[ "$abi" = "$kabi" ] && tag="" || tag=" ABI $abi"
# the shipped examples run at every ABI; the synthetic specs at the
# kernel's and the lowest (they test the planner, not the ABI)
case $spec in *.llspec) [ "$abi" = "$kabi" ] || [ "$abi" = 1 ] || continue ;; esac
for variant in plain alias; do
	[ -e "$spec" ] || continue
	opt=(--mechanism $mech)
	case $spec in *.sb) opt+=(--allow-unenforceable) ;; esac
	# below ABI 6 a signal deny (deny default) is not enforceable: the file
	# rules are what this suite checks
	[ "$abi" -lt 6 ] && opt+=(--allow-unenforceable)
	fixture $variant
	out=$("$PT" "${opt[@]}" --clamp-abi "$abi" -p "$spec" -D HOME=$H -D WORKSPACE=$H/proj -D TMPDIR=/private/tmp -D PROBEDIR="$ROOT/$B/test-bin" \
		--probe "$PROBE" --mutable /home --truncatable /home --truncatable /mnt --walk /home --walk /mnt \
		--path / --path /etc --path /etc/passwd --path /etc/hostname --path /usr \
		--path /usr/bin --path /usr/bin/true --path /tmp --path /var/tmp --path /root \
		--path /dev --path /dev/null --path /dev/zero --path /dev/tty --path /dev/shm \
		--path /proc/self/status --path /run --path /opt 2>&1)
	rc=$?
	grep -E '^(VIOLATION|stricter|summary|probe_tree)' <<<"$out" | sed 's/^/  /'
	ro=$(cat /mnt/ro.txt 2>/dev/null)
	name="$(basename "$spec") [$mech, $variant$tag]"
	if [ $rc = 0 ] && [ "$ro" = ro ]; then
		echo "PASS: $name: no access allowed that decide() denies; /mnt/ro.txt intact"
	else
		echo "FAIL: $name: rc $rc, /mnt/ro.txt '$ro'"
		grep -v -E '^(VIOLATION|stricter|summary)' <<<"$out" | head -5
		fails=$((fails + 1))
	fi
	# (with a bind-mount alias of $HOME the workspace rule loses what the
	# alias may not have: listed above, not asserted; docs/limitations.md)
	# Below ABI 3 the truncation guard refuses truncate(2) everywhere, the
	# workspace too (docs/linux.md): a documented loss, not asserted here.
	if [ $mech = masks ] && [ $variant = plain ] && [ "$abi" -ge 3 ]; then
		# stricter in the workspace: only at or below a denied path
		bad=$(grep -E '^stricter' <<<"$out" | grep -E " $H/proj(/|:| |$)" |
			grep -v -E "$H/proj/(\.env|\.git|locked|noexec|secret|nocreate|keep|\.gitmodules|\.envrc|\.bashrc|\.bash_profile|\.zshrc|\.zshenv|\.zprofile|\.profile)( |/|:|$)" || true)
		if [ -z "$bad" ]; then
			echo "PASS: $name: with masks the workspace is as usable as decide() says"
		else
			echo "FAIL: $name: stricter than decide() in the workspace with masks:"
			sed 's/^/    /' <<<"$bad" | head -10
			fails=$((fails + 1))
		fi
	fi
done
done
done
done
mountpoint -q /mnt/alias && umount /mnt/alias
[ $fails -eq 0 ]
