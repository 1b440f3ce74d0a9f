#!/usr/bin/env bash
# suite-hostile-host.sh: tests/lib/hostile-host.sh does what `make test`'s
# second pass relies on (README "Tests"): `run` puts the hostile state in
# place inside its namespace and leaves nothing behind; `apply` refuses
# without SBX_HOSTILE_HOST=change-this-machine, makes every change it
# promises, refuses a second time, and `undo` restores the machine exactly.
# apply/undo run for real, but in a private mount namespace whose /usr/bin,
# /etc, /var, /home, /tmp and root's home are throwaway overlays: this machine
# never changes.  Exit 0 pass, 77 skip, 1 fail.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
HH=$root/tests/lib/hostile-host.sh
npass=0 nfail=0
pass() { echo "PASS: $*"; npass=$((npass + 1)); }
fail() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
check() { local d=$1; shift; if "$@"; then pass "$d"; else fail "$d"; fi; }
# alive PID: running, not a zombie (where pid 1 does not reap, stopped
# processes stay as zombies)
alive() { local st; st=$(ps -o stat= -p "$1" 2> /dev/null); [ -n "$st" ] && [ "${st#Z}" = "$st" ]; }
export -f alive
rhome=$(getent passwd 0 | cut -d: -f6)

if [ "${1:-}" != --apply-phase ]; then
	[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (private mount namespaces, overlays)"; exit 77; }
	/usr/bin/unshare -m --propagation private /bin/true 2> /dev/null || { echo "SKIP: no private mount namespace"; exit 77; }
	for t in useradd userdel getent git findmnt; do
		command -v $t > /dev/null || { echo "SKIP: $t missing"; exit 77; }
	done
	# ---- run: the state inside, nothing left outside ----
	had_omp=$([ -e /usr/bin/omp ] && echo 1 || echo 0)
	gc_before=$(sha256sum "$rhome/.gitconfig" 2> /dev/null)
	out=$(SBX_HOSTILE_LOAD_JOBS=1 "$HH" run -- /bin/bash -c '
		echo "stage=$SBX_HOSTILE_STAGE bind=$SBX_HOSTILE_BIND load=$SBX_HOSTILE_LOAD_PID"
		echo "omp=$(command -v omp) $(omp --version)"
		echo "bunpath=$(command -v bun)"
		echo "gitname=$(git config --global user.name) hooks=$(git config --global core.hooksPath)"
		echo "abbrev=$(git config --includes --global core.abbrev)"
		echo "npmrc=$(grep -c _authToken ~/.npmrc)"
		echo "user=$(getent passwd sbxhostile | cut -d: -f6)"
		ls /home/sbxhostile/.ssh/id_ed25519 > /dev/null && echo userfiles
		[ -f "$SBX_HOSTILE_BIND/cache/README" ] && findmnt -n "$SBX_HOSTILE_BIND" > /dev/null && echo bindmount
		alive "$SBX_HOSTILE_LOAD_PID" && pgrep -s "$SBX_HOSTILE_LOAD_PID" -f "make -j1" > /dev/null && echo load
		exit 7' 2>&1)
	rc=$?
	read -r stage bind load <<< "$(sed -n 's/^stage=\(.*\) bind=\(.*\) load=\(.*\)$/\1 \2 \3/p' <<< "$out")"
	check "run: the command's status is returned (7)" [ $rc = 7 ]
	check "run: a global omp stand-in in /usr/bin, of another version than the pinned one" \
		grep -qx "omp=/usr/bin/omp omp/18.9.0" <<< "$out"
	check "run: bun in ~/.bun/bin first on PATH" grep -qx "bunpath=$rhome/.bun/bin/bun" <<< "$out"
	check "run: root's ~/.gitconfig with an identity, core.hooksPath and an include" \
		bash -c 'grep -qx "gitname=Hostile Host hooks=~/.githooks" <<< "$1" && grep -qx "abbrev=20" <<< "$1"' _ "$out"
	check "run: ~/.npmrc with a token" grep -qx "npmrc=1" <<< "$out"
	check "run: a second user with a home and files under /home" \
		bash -c 'grep -qx "user=/home/sbxhostile" <<< "$1" && grep -qx userfiles <<< "$1"' _ "$out"
	check "run: a bind mount under /tmp" grep -qx bindmount <<< "$out"
	check "run: a parallel build runs as load" grep -qx load <<< "$out"
	check "run: nothing left behind (stage $stage, bind target, /usr/bin, ~/.gitconfig, load)" bash -c '
		[ -n "$1" ] && [ ! -e "$1" ] && [ -n "$2" ] && [ ! -e "$2" ] && [ "$([ -e /usr/bin/omp ] && echo 1 || echo 0)" = "$4" ] &&
		[ "$(sha256sum "$5/.gitconfig" 2>/dev/null)" = "$6" ] && [ -n "$3" ] && ! alive "$3"' \
		_ "$stage" "$bind" "$load" "$had_omp" "$rhome" "$gc_before"
	# apply/undo in a namespace of its own; its overlays live in $S
	S=$(mktemp -d /tmp/sbx-suite-hh.XXXXXX)
	/usr/bin/unshare -m --propagation private /bin/bash "$0" --apply-phase "$S" "$npass" "$nfail"
	rc=$?
	rmdir "$S"
	exit $rc
fi

S=$2 npass=$3 nfail=$4
# ---- apply / undo, for real, on throwaway overlays ----
# a load left by a failed check is stopped
trap '[ -e /var/lib/sbx-hostile-host/undo ] && "$HH" undo > /dev/null 2>&1' EXIT
mount -t tmpfs -o mode=0700 sbx-suite-hh "$S" || { echo "FAIL: tmpfs"; exit 1; }
for d in /usr/bin /etc /var /home "$rhome"; do
	n=$(echo "$d" | tr / _)
	mkdir -p "$S/up$n" "$S/work$n"
	mount -t overlay "sbx-suite-hh$n" -o "lowerdir=$d,upperdir=$S/up$n,workdir=$S/work$n" "$d" ||
		{ echo "FAIL: overlay on $d"; exit 1; }
done
mount -t tmpfs -o mode=1777 sbx-suite-hh-tmp /tmp || { echo "FAIL: tmpfs /tmp"; exit 1; }
rm -f /usr/bin/omp /usr/bin/bun   # (in the overlay: a machine without them)
printf '[user]\n\tname = Original Owner\n' > "$rhome/.gitconfig"
rm -rf "$rhome/.npmrc" "$rhome/.bun" "$rhome/.gitconfig.d" "$rhome/.githooks"
snap() { # what apply may change and undo must restore
	for f in /usr/bin/omp /usr/bin/bun "$rhome/.gitconfig" "$rhome/.npmrc" "$rhome/.bun" "$rhome/.githooks" \
		/etc/passwd /etc/group /etc/shadow /etc/gshadow /etc/subuid /etc/subgid /home/sbxhostile /tmp/sbx-hostile-bind /var/lib/sbx-hostile-host; do
		if [ -e "$f" ]; then find "$f" -printf '%p %m %s\n' 2> /dev/null | LC_ALL=C sort | head -50
			[ -f "$f" ] && sha256sum "$f"
		else echo "absent $f"; fi
	done
	findmnt -n -o TARGET | grep -c sbx-hostile
}
before=$(snap)
out=$("$HH" apply 2>&1)
rc=$?
check "apply without SBX_HOSTILE_HOST=change-this-machine: refused (2), naming the variable and undo, nothing changed" \
	bash -c '[ "$1" = 2 ] && grep -q "SBX_HOSTILE_HOST=change-this-machine" <<< "$2" && grep -q undo <<< "$2" && [ "$3" = "$4" ]' \
	_ "$rc" "$out" "$before" "$(snap)"
out=$(SBX_HOSTILE_HOST=change-this-machine SBX_HOSTILE_LOAD_JOBS=1 "$HH" apply 2>&1)
rc=$?
check "apply: done (0)" [ $rc = 0 ]
check "apply: /usr/bin/omp and /usr/bin/bun answer --version" \
	bash -c '[ "$(/usr/bin/omp --version)" = omp/18.9.0 ] && [ "$(/usr/bin/bun --version)" = 1.9.0 ]'
check "apply: root's ~/.gitconfig replaced (hooks path, signing), the original backed up" \
	bash -c '[ "$(git config --global core.hooksPath)" = "~/.githooks" ] && [ "$(git config --global commit.gpgsign)" = true ] &&
		grep -q "Original Owner" /var/lib/sbx-hostile-host/backup/.gitconfig'
check "apply: a commit with the user's git config is refused by the global hook" bash -c '
	d=$(mktemp -d) && cd "$d" && git init -q && echo x > f && git add f &&
	! git -c commit.gpgsign=false commit -qm x 2> /dev/null; r=$?; rm -rf "$d"; exit $r'
check "apply: user sbxhostile with files in /home/sbxhostile" \
	bash -c 'getent passwd sbxhostile > /dev/null && [ -f /home/sbxhostile/.ssh/id_ed25519 ] && [ "$(stat -c %U /home/sbxhostile/notes)" = sbxhostile ]'
check "apply: a bind mount at /tmp/sbx-hostile-bind" bash -c 'findmnt -n /tmp/sbx-hostile-bind > /dev/null'
lpid=$(cat /var/lib/sbx-hostile-host/load.pid 2> /dev/null)
check "apply: the load runs (pid ${lpid:-none})" bash -c '[ -n "$1" ] && alive "$1"' _ "$lpid"
out=$(SBX_HOSTILE_HOST=change-this-machine "$HH" apply 2>&1)
check "apply twice: refused (2), pointing at undo" bash -c '[ "$1" = 2 ] && grep -q undo <<< "$2"' _ "$?" "$out"
"$HH" status | grep -q '^applied' && pass "status: applied" || fail "status after apply"
out=$("$HH" undo 2>&1)
rc=$?
check "undo: done (0)" [ $rc = 0 ]
check "undo: the machine is as before (files, user, mount, state directory)" \
	[ "$before" = "$(snap)" ]
[ "$before" = "$(snap)" ] || echo "  diff: $(diff <(echo "$before") <(snap) | head -5)"
check "undo: the load is stopped" bash -c '[ -n "$1" ] && ! alive "$1"' _ "$lpid"
"$HH" status | grep -qx 'not applied' && pass "status: not applied" || fail "status after undo"

echo "hostile-host: $npass passed, $nfail failed"
[ $nfail = 0 ]
