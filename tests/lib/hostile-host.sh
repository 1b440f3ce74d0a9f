#!/usr/bin/env bash
# hostile-host.sh run|apply|undo|status: an ordinary but hostile machine for
# the second test pass (`make test-hostile`, README "Tests").  A user's machine
# has omp and bun installed globally, a ~/.gitconfig with identity, includes
# and core.hooksPath, an ~/.npmrc with a token, other users with homes under
# /home, a bind mount under /tmp and a parallel build running; every suite
# must pass there as on a fresh machine (tests build the world they assert on).
#
#   run [--] CMD...  run CMD in a private mount namespace where the hostile
#                    state is in place (overlays on /usr/bin, root's home and
#                    /home; copies of /etc/passwd and /etc/group naming a
#                    second user; a bind mount under /tmp), with a parallel
#                    build as background load.  Nothing outside the namespace
#                    changes; what it creates is removed when CMD ends.  This
#                    is what `make test` uses: it is safe on a developer's
#                    machine.  Needs root (77 otherwise).
#   apply            the same state for real, on this machine: stand-ins in
#                    /usr/bin, root's dot files replaced (backed up), a user
#                    sbxhostile with a home, a bind mount, the load running in
#                    the background.  Refuses unless
#                    SBX_HOSTILE_HOST=change-this-machine is set.  Every change
#                    is recorded in /var/lib/sbx-hostile-host/ for `undo`.
#   undo             revert what `apply` recorded (and only that).
#   status           say whether `apply` is in effect.
#
# Environment: SBX_HOSTILE_LOAD_JOBS  jobs of the background build (default:
# the number of CPUs; 0: no load).
# Exit: CMD's status for run; 0 done, 2 usage or refusal, 77 not root.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
STATE=/var/lib/sbx-hostile-host
USERNAME=sbxhostile
OMP_VERSION_FAKE=18.9.0     # not the pinned 18.2.3 (tests/lib/install-omp.sh)
BUN_VERSION_FAKE=1.9.0
BIND_TARGET=/tmp/sbx-hostile-bind
jobs=${SBX_HOSTILE_LOAD_JOBS:-$(nproc 2>/dev/null || echo 2)}

say() { echo "hostile-host: $*" >&2; }
die() { say "$*"; exit 2; }

# ---- the files of the hostile state, written under a directory ----

# stand_ins DIR: omp and bun as a global npm install would leave them.  They
# answer --version like the real ones (a newer version than the pinned one),
# so a test that finds them on PATH runs them and sees a working omp.
stand_ins() {
	mkdir -p "$1"
	cat > "$1/omp" <<-EOF
	#!/bin/sh
	# global omp stand-in (tests/lib/hostile-host.sh)
	for a in "\$@"; do
		if [ "\$a" = --version ]; then
			if [ "\$1" = --version ]; then echo "omp/$OMP_VERSION_FAKE"; else echo "$OMP_VERSION_FAKE"; fi
			exit 0
		fi
	done
	echo "omp $OMP_VERSION_FAKE (global stand-in): \$*" >&2
	exit 0
	EOF
	cat > "$1/bun" <<-EOF
	#!/bin/sh
	# global bun stand-in (tests/lib/hostile-host.sh)
	[ "\${1:-}" = --version ] && { echo "$BUN_VERSION_FAKE"; exit 0; }
	echo "bun $BUN_VERSION_FAKE (global stand-in): \$*" >&2
	exit 0
	EOF
	chmod 0755 "$1/omp" "$1/bun"
}

# root_home DIR: root's dot files: git identity, an include, a hooks path
# whose hooks refuse every commit, signing on; an npm token for a scoped
# private registry (so installs from the public registry still work); bun
# in ~/.bun/bin as its installer puts it.
root_home() {
	local h=$1
	mkdir -p "$h/.gitconfig.d" "$h/.githooks" "$h/.bun/bin"
	cat > "$h/.gitconfig" <<-'EOF'
	# hostile-host.sh: an ordinary developer's git configuration
	[user]
		name = Hostile Host
		email = hostile@example.invalid
		signingkey = 0xDEADBEEF
	[include]
		path = ~/.gitconfig.d/extra
	[core]
		hooksPath = ~/.githooks
	[commit]
		gpgsign = true
	[init]
		defaultBranch = trunk
	EOF
	printf '[core]\n\tabbrev = 20\n[pull]\n\trebase = true\n[alias]\n\tst = status\n' > "$h/.gitconfig.d/extra"
	for hook in pre-commit commit-msg pre-push; do
		printf '#!/bin/sh\necho "hostile-host: the global %s hook ran (core.hooksPath of ~/.gitconfig)" >&2\nexit 1\n' "$hook" \
			> "$h/.githooks/$hook"
		chmod 0755 "$h/.githooks/$hook"
	done
	cat > "$h/.npmrc" <<-'EOF'
	# hostile-host.sh: a developer's npm configuration with a token
	@hostile:registry=https://npm.hostile.invalid/
	//npm.hostile.invalid/:_authToken=npm_HOSTILEHOSTTOKEN0000000000000000000000
	EOF
	chmod 0600 "$h/.npmrc"
	stand_ins "$h/.bun/bin"
	rm -f "$h/.bun/bin/omp"
}

# user_home DIR: a second user's home with the usual things in it.
user_home() {
	local h=$1
	mkdir -p "$h/.ssh" "$h/notes" "$h/src/app"
	printf 'export PATH=$HOME/.local/bin:$PATH\n' > "$h/.bashrc"
	printf -- '-----BEGIN OPENSSH PRIVATE KEY-----\nhostile-host fake key\n-----END OPENSSH PRIVATE KEY-----\n' > "$h/.ssh/id_ed25519"
	echo "meeting notes" > "$h/notes/todo.txt"
	echo 'console.log("app")' > "$h/src/app/index.js"
	chmod 0700 "$h/.ssh"
	chmod 0600 "$h/.ssh/id_ed25519"
	chmod 0755 "$h"
}

# bind_source DIR: what the bind mount under /tmp shows.
bind_source() {
	mkdir -p "$1/cache"
	echo "a build cache, bind-mounted under /tmp" > "$1/cache/README"
}

# ---- the background load: a parallel build of this tree, over and over ----

# load_start DIR: start the build loop in its own session; print its pid.
load_start() {
	local dir=$1
	[ "$jobs" -gt 0 ] 2>/dev/null || return 0
	mkdir -p "$dir"
	setsid /bin/bash -c '
		cd "$1" || exit 1
		while :; do
			rm -rf "$2/b"
			nice -n 0 make -j"$3" B="$2/b" all > /dev/null 2>&1 || sleep 1
		done' load "$root" "$dir" "$jobs" < /dev/null > /dev/null 2>&1 &
	echo $!
}

load_stop() { # PID: its whole session
	[ -n "${1:-}" ] || return 0
	pkill -TERM -s "$1" 2> /dev/null
	kill -TERM "$1" 2> /dev/null
	sleep 0.3
	pkill -KILL -s "$1" 2> /dev/null
	wait "$1" 2> /dev/null
	return 0
}

need_root() {
	[ "$(id -u)" = 0 ] || { echo "SKIP: hostile-host: needs root (mount namespaces, /usr/bin, /home)" >&2; exit 77; }
}

free_uid() { # the first unused uid and gid from 2000
	local u=2000
	while getent passwd "$u" > /dev/null || getent group "$u" > /dev/null; do u=$((u + 1)); done
	echo "$u"
}

# ---- run: the state in a private mount namespace ----

cmd_run() {
	[ "${1:-}" = -- ] && shift
	[ $# -gt 0 ] || die "usage: hostile-host.sh run [--] COMMAND [ARGS...]"
	need_root
	/usr/bin/unshare -m --propagation private /bin/true 2> /dev/null ||
		{ echo "SKIP: hostile-host: no private mount namespace (unshare -m)" >&2; exit 77; }
	# The stage lives on disk (overlay upper directories and the bind source
	# are on the root file system, as on a real machine), outside /tmp's
	# bind target and outside every home.
	local stage
	stage=$(mktemp -d /var/tmp/sbx-hostile.XXXXXX) || die "mktemp failed"
	local rhome
	rhome=$(getent passwd 0 | cut -d: -f6)
	[ -d "$rhome" ] || die "root's home $rhome does not exist"
	mkdir -p "$stage/usrbin/up" "$stage/usrbin/work" "$stage/roothome/up" "$stage/roothome/work" \
		"$stage/home/up" "$stage/home/work" "$stage/bindsrc" "$stage/load"
	stand_ins "$stage/usrbin/up"
	root_home "$stage/roothome/up"
	local uid
	uid=$(free_uid)
	user_home "$stage/home/up/$USERNAME"
	chown -R "$uid:$uid" "$stage/home/up/$USERNAME"
	bind_source "$stage/bindsrc"
	getent passwd > "$stage/passwd" && echo "$USERNAME:x:$uid:$uid:Hostile Host user:/home/$USERNAME:/bin/bash" >> "$stage/passwd"
	getent group > "$stage/group" && echo "$USERNAME:x:$uid:" >> "$stage/group"
	chmod 0644 "$stage/passwd" "$stage/group"
	local target=$BIND_TARGET.$$
	local lpid
	lpid=$(load_start "$stage/load")
	say "state: /usr/bin/{omp,bun} (stand-ins $OMP_VERSION_FAKE/$BUN_VERSION_FAKE), $rhome/{.gitconfig,.gitconfig.d,.githooks,.npmrc,.bun/bin/bun}, user $USERNAME (uid $uid, /home/$USERNAME), bind mount $target, load: $([ -n "$lpid" ] && echo "make -j$jobs (pid $lpid)" || echo none)"
	mkdir -p "$target"
	# a run stopped by a signal cleans up too (once its command has ended)
	trap 'load_stop "$lpid"; rmdir "$target" 2> /dev/null; rm -rf "$stage"; exit 143' TERM INT HUP
	/usr/bin/unshare -m --propagation private /bin/bash -c '
		set -e
		stage=$1 rhome=$2 target=$3 lpid=$4; shift 4
		mount -t overlay sbx-hostile-usrbin -o "lowerdir=/usr/bin,upperdir=$stage/usrbin/up,workdir=$stage/usrbin/work" /usr/bin
		mount -t overlay sbx-hostile-root -o "lowerdir=$rhome,upperdir=$stage/roothome/up,workdir=$stage/roothome/work" "$rhome"
		mount -t overlay sbx-hostile-home -o "lowerdir=/home,upperdir=$stage/home/up,workdir=$stage/home/work" /home
		mount --bind "$stage/passwd" /etc/passwd
		mount --bind "$stage/group" /etc/group
		# (not unlinked: tests/lib/fakehome.sh mounts over /etc/passwd, and
		# nothing can be mounted on a mount of a deleted file)
		mount --bind "$stage/bindsrc" "$target"
		set +e
		export PATH="$rhome/.bun/bin:$rhome/.local/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
		# (for tests/suite-hostile-host.sh: what to find gone afterwards)
		export SBX_HOSTILE_STAGE=$stage SBX_HOSTILE_BIND=$target SBX_HOSTILE_LOAD_PID=$lpid
		exec "$@"' hostile "$stage" "$rhome" "$target" "$lpid" "$@"
	local rc=$?
	trap - TERM INT HUP
	load_stop "$lpid"
	rmdir "$target" 2> /dev/null
	rm -rf "$stage"
	return $rc
}

# ---- apply / undo: the state for real ----

record() { echo "$*" >> "$STATE/undo"; }

cmd_apply() {
	need_root
	[ "${SBX_HOSTILE_HOST:-}" = change-this-machine ] ||
		die "apply changes this machine (/usr/bin, root's dot files, a user, a mount, a background build); set SBX_HOSTILE_HOST=change-this-machine to allow it, and run '$0 undo' to revert"
	[ -e "$STATE/undo" ] && die "already applied ($STATE/undo); run '$0 undo' first"
	mkdir -p "$STATE/backup" "$STATE/load" "$STATE/bindsrc"
	: > "$STATE/undo"
	local rhome
	rhome=$(getent passwd 0 | cut -d: -f6)
	local t
	t=$(mktemp -d) && stand_ins "$t" || die "stand-ins"
	for f in omp bun; do
		if [ -e "/usr/bin/$f" ]; then
			say "/usr/bin/$f exists already: left as it is"
		else
			install -m 0755 "$t/$f" "/usr/bin/$f" && record "rm /usr/bin/$f"
		fi
	done
	rm -rf "$t"
	t=$(mktemp -d) && root_home "$t" || die "root's dot files"
	for f in .gitconfig .gitconfig.d .githooks .npmrc .bun; do
		if [ -e "$rhome/$f" ] || [ -L "$rhome/$f" ]; then
			mv "$rhome/$f" "$STATE/backup/$f" && record "restore $rhome/$f $STATE/backup/$f"
		else
			record "rm $rhome/$f"
		fi
		cp -a "$t/$f" "$rhome/$f"
	done
	rm -rf "$t"
	if getent passwd "$USERNAME" > /dev/null; then
		say "user $USERNAME exists already: left as it is"
	else
		useradd -m -s /bin/bash -c "Hostile Host user" "$USERNAME" && record "userdel $USERNAME" &&
			user_home "/home/$USERNAME" && chown -R "$USERNAME:" "/home/$USERNAME"
	fi
	bind_source "$STATE/bindsrc"
	mkdir -p "$BIND_TARGET" && mount --bind "$STATE/bindsrc" "$BIND_TARGET" &&
		record "umount $BIND_TARGET"
	local lpid
	lpid=$(load_start "$STATE/load")
	[ -n "$lpid" ] && echo "$lpid" > "$STATE/load.pid" && record "load $lpid"
	say "applied; '$0 undo' reverts ($STATE/undo):"
	cat "$STATE/undo" >&2
}

cmd_undo() {
	need_root
	[ -e "$STATE/undo" ] || { say "nothing applied ($STATE/undo missing)"; return 0; }
	local rc=0 op a b
	# newest change first
	while read -r op a b; do
		case $op in
		rm) rm -rf "$a" || rc=1 ;;
		restore) rm -rf "$a" && mv "$b" "$a" || rc=1 ;;
		userdel) userdel -r "$a" 2> /dev/null || userdel "$a" || rc=1 ;;
		umount) umount "$a" && rmdir "$a" || rc=1 ;;
		load) load_stop "$a" ;;
		esac
		say "undone: $op $a"
	done < <(tac "$STATE/undo")
	[ $rc = 0 ] && rm -rf "$STATE"
	return $rc
}

case ${1:-} in
run) shift; cmd_run "$@" ;;
apply) cmd_apply ;;
undo) cmd_undo ;;
status)
	if [ -e "$STATE/undo" ]; then echo "applied:"; cat "$STATE/undo"; else echo "not applied"; fi ;;
*) die "usage: hostile-host.sh run [--] COMMAND... | apply | undo | status" ;;
esac
