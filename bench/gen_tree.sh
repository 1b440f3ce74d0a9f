#!/bin/bash
# gen_tree.sh ROOT N - build a root file system at ROOT (a tmpfs) that looks
# like / plus N extra entries in / and N extra entries beside the home
# directory (in /home), for `chroot ROOT ...`.  Every real top-level entry of
# / is bind-mounted (recursively) or, for symlinks, copied; /home is a fresh
# tmpfs holding the throwaway home /home/bench (with .omp and a workspace ws)
# and the N siblings; /tmp is a fresh tmpfs.  Entries are directories, every
# fourth one a file.  Undo with `umount -R ROOT`.
# Must run as root inside a private mount namespace (bench/run.sh does
# `unshare -m --propagation private`): it refuses to mount anything in the
# host's namespace.
set -euo pipefail
root=${1:?usage: gen_tree.sh ROOT N}
n=${2:?usage: gen_tree.sh ROOT N}
case $n in *[!0-9]*|'') echo "gen_tree.sh: N must be a number" >&2; exit 2 ;; esac
if [ "$(readlink /proc/self/ns/mnt)" = "$(readlink /proc/1/ns/mnt)" ]; then
	echo "gen_tree.sh: not in a private mount namespace; refusing" >&2
	exit 2
fi
mkdir -p "$root"
mount -t tmpfs -o mode=0755 bench-root "$root"
for e in /* /.[!.]*; do
	[ -e "$e" ] || [ -L "$e" ] || continue
	name=${e#/}
	case $name in home|tmp) continue ;; esac
	if [ -L "$e" ]; then
		cp -P "$e" "$root/$name"
	elif [ -d "$e" ]; then
		mkdir "$root/$name"
		mount --rbind "$e" "$root/$name"
	else
		: > "$root/$name"
		mount --bind "$e" "$root/$name"
	fi
done
# A fresh /tmp: binding the real one would make this tree (which usually
# lives below /tmp) visible inside itself, a bind-mount alias of the home.
mkdir "$root/tmp"
mount -t tmpfs -o mode=1777 bench-tmp "$root/tmp"
# A checkout below /tmp (CI may clone there) must stay visible inside: bind
# just the project directory back (SBX_BENCH_PROJECT, set by bench/run.sh).
proj=${SBX_BENCH_PROJECT:-}
case $proj in
/tmp/?*)
	mkdir -p "$root$proj"
	mount --rbind "$proj" "$root$proj"
	;;
esac
mkdir "$root/home"
mount -t tmpfs -o mode=0755 bench-home "$root/home"
mkdir -p -m 0700 "$root/home/bench" "$root/home/bench/.omp"
mkdir -p "$root/home/bench/ws"
make_entries() {	# DIR PREFIX N  (batched: one mkdir and one touch, not N processes)
	local dir=$1 prefix=$2 count=$3
	(cd "$dir" && awk -v n="$count" -v p="$prefix" 'BEGIN { for (i = 0; i < n; i++) if (i % 4 != 3) print p i }' | xargs -r mkdir)
	(cd "$dir" && awk -v n="$count" -v p="$prefix" 'BEGIN { for (i = 0; i < n; i++) if (i % 4 == 3) print p i }' | xargs -r touch)
}
make_entries "$root" bench-e "$n"
make_entries "$root/home" user "$n"
