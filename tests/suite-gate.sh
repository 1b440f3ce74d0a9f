#!/usr/bin/env bash
# suite-gate.sh - the Linux write gate (docs/linux.md, "The write gate"):
# write denies inside the writable workspace, enforced by name, exactly,
# for the whole session, as root and as uid 65534, under both mechanisms
# (masks, complement) and at emulated Landlock ABIs 1, 2, 3, 5 and 7.
#  * a fresh repository with none of the protected names: new files and
#    directories anywhere but the protected names; git commit/branch/
#    rebase/worktree work; nothing is created for a protected name (no
#    litter), before, during or after the run;
#  * every route to a protected name is refused with EACCES (open, openat,
#    openat2, creat with O_CREAT; mkdir, mknod, symlink, link, rename,
#    renameat2 NOREPLACE/EXCHANGE, O_TMPFILE + linkat, bind of a UNIX
#    socket, truncate, unlink, rmdir; io_uring refused);
#  * racing threads (the path in memory, a symlink swapped at the last
#    name) never create a protected name;
#  * the outside world changes under a running session (git config's
#    lock-and-rename of .git/config, an editor's rename over .envrc,
#    sed -i, rm -rf + mkdir of .git/hooks): the protection holds after.
# Runs in a private mount namespace: tmpfs /home, a passwd copy naming the
# throwaway homes (the real home is never touched).
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
B=${B:-build}
case $B in /*) ;; *) B=$ROOT/$B ;; esac
SBC=$B/bin/sbc
TSBRUN=$B/test-bin/sbrun
PROBE=$B/test-bin/gate_probe

if [ -z "${SBX_GATE_IN_NS:-}" ]; then
	for f in "$TSBRUN" "$SBC" "$PROBE"; do [ -x "$f" ] || { echo "FAIL: missing $f"; exit 1; }; done
	[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root for a private mount namespace"; exit 77; }
	command -v git >/dev/null || { echo "SKIP: git missing"; exit 77; }
	if ! "$B/bin/sbrun" --doctor >/dev/null 2>&1; then echo "SKIP: Landlock unavailable"; exit 77; fi
	SBX_GATE_IN_NS=1 exec unshare -m --propagation private bash "$0" "$@"
fi

npass=0 nfail=0
pass() { echo "PASS: $*"; npass=$((npass + 1)); }
fail() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
check() { local what=$1; shift; if "$@"; then pass "$what"; else fail "$what"; fi; }

mount -t tmpfs -o mode=0755 tmpfs /home || exit 1
mount -t tmpfs -o mode=0755 tmpfs /mnt || exit 1
S=/mnt/.state; mkdir -p $S; chmod 0711 $S
awk -F: -v OFS=: '$3 == 0 { $6 = "/home/root-g" } $3 == 65534 { $6 = "/home/user-g" } { print }' \
	/etc/passwd >$S/passwd
chmod 0644 $S/passwd
mount --bind $S/passwd /etc/passwd || exit 1
P=/mnt/profiles; mkdir -p $P
cp -r "$ROOT"/examples/. $P/
# the protected names: absent and present files, a directory, the .git node
cat >$P/gate.sbx <<'EOF'
include "omp.sbx";
deny write exactly workspace/.git
    workspace/.git/hooks
    exactly workspace/.git/config
    exactly workspace/.envrc
    workspace/.vscode
    exactly workspace/.mcp.json;
EOF
"$SBC" -o $P/gate.sb $P/gate.sbx && "$SBC" -o $P/omp.sb $P/omp.sbx || { echo "FAIL: sbc gate.sbx, omp.sbx"; exit 1; }
cp "$PROBE" /mnt/gate_probe
chmod -R a+rX $P /mnt/gate_probe

as_id() {
	if [ "$ID" = user ]; then setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"; else "$@"; fi
}
# run CMD: CMD (a bash script) under the test sbrun from the workspace,
# at the ABI and mechanism of the round
run() {
	(cd "$H/proj" && as_id env -i PATH=/mnt:/usr/local/bin:/usr/bin:/bin HOME="$H" LANG=C \
		GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@x GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@x \
		${ABI:+SB_TEST_LL_ABI=$ABI} \
		"$TSBRUN" "${MECHOPT[@]}" $P/gate.sb -- /bin/bash --noprofile --norc -c "$*" 2>&1)
}
make_home() {
	rm -rf "$H"; mkdir -p "$H/proj" "$H/.omp"
	(cd "$H/proj" && git init -q -b main . && echo one >a.txt && git add a.txt &&
		git -c user.name=t -c user.email=t@x commit -qm one)
	chown -R "$OWNER" "$H"
}
sums() { (cd "$H/proj" && sha256sum .git/config; ls -A .git/hooks; ls -A) 2>&1; }
absent_all() {
	local f
	for f in .envrc .vscode .mcp.json; do [ ! -e "$H/proj/$f" ] && [ ! -L "$H/proj/$f" ] || return 1; done
}

ROUTES_NEW="open-creat open-excl open-legacy creat openat2-creat mkdir mkdir-legacy mknod-fifo mknod-reg symlink bind-unix"

round() {
	local tag="[$ID, ${MECH:-auto}, ABI ${ABI:-native}]"
	make_home
	before=$(sums)
	# (1) daily work in a fresh repository, nothing protected present
	out=$(run '
		set -e
		git config user.name t; echo ESCAPED-config-set
		true')
	check "$tag git config (writes .git/config) is refused" bash -c '! grep -q ESCAPED <<<"$1"' _ "$out"
	out=$(run '
		set -e
		git() { command git -c user.name=t -c user.email=t@x "$@"; }
		touch newtop; mkdir newdir; echo x >newdir/f; mv newtop newdir/; rm -r newdir
		echo README >README.md; printf "all:\n\ttrue\n" >Makefile; make -s >/dev/null
		echo two >>a.txt; git add -A; git commit -qm two
		git branch topic; git checkout -q topic; echo t >t.txt; git add t.txt; git commit -qm t
		git checkout -q main; echo m >m.txt; git add m.txt; git commit -qm m
		git checkout -q topic; git rebase -q main; git checkout -q main
		git worktree add -q ../wt topic 2>/dev/null || git worktree add -q wt-in topic
		git stash list >/dev/null; git gc -q
		ls -a >/dev/null
		echo WORKLOAD-OK')
	check "$tag new files at the top, make, git add/commit/branch/rebase/worktree/gc work" \
		grep -q WORKLOAD-OK <<<"$out"
	grep -q WORKLOAD-OK <<<"$out" || sed 's/^/    | /' <<<"$out" | tail -12
	check "$tag no litter: no protected name was created" absent_all

	# (2) every route to a protected name that does not exist
	out=$(run '
		for r in '"$ROUTES_NEW"'; do gate_probe $r .envrc; gate_probe $r .vscode; gate_probe $r .mcp.json; done
		echo s >src; mkdir srcdir
		gate_probe link src .envrc; gate_probe rename src .envrc; gate_probe rename-noreplace src .mcp.json
		gate_probe rename srcdir .vscode; gate_probe tmpfile-link . .envrc
		gate_probe io-uring .
		gate_probe open-creat allowed-new; gate_probe mkdir allowed-dir; gate_probe symlink allowed-link
		gate_probe rename src renamed; gate_probe link renamed linked; gate_probe tmpfile-link . named-tmp
		gate_probe bind-unix sock-ok')
	# below ABI 3 the truncation guard refuses openat2 (ENOSYS) before the
	# gate sees it (docs/linux.md, "Truncation below ABI 3")
	[ -n "$ABI" ] && [ "$ABI" -lt 3 ] && out=$(sed 's/^openat2-creat: ENOSYS$/openat2-creat: EACCES/' <<<"$out")
	bad=$(grep -E '^[a-z0-9-]+: ' <<<"$out" | grep -v -e ': EACCES$' -e '^io-uring: EPERM$' |
		grep -v -E '^(open-creat|mkdir|symlink|rename|link|tmpfile-link|bind-unix): ok$')
	n_refused=$(grep -c ': EACCES$' <<<"$out")
	check "$tag every route to an absent protected name is EACCES ($n_refused refused)" \
		bash -c '[ -z "$1" ] && [ "$2" -eq 38 ]' _ "$bad" "$n_refused"
	[ -z "$bad" ] || sed 's/^/    unexpected | /' <<<"$bad" | head -8
	check "$tag ... the same routes to allowed names work (7 ok)" \
		bash -c '[ "$(grep -c ": ok$" <<<"$1")" -eq 7 ]' _ "$out"
	check "$tag ... io_uring is refused" grep -q '^io-uring: EPERM$' <<<"$out"
	check "$tag ... and no protected name exists afterwards" absent_all

	# (3) existing protected files: write, truncate, remove, rename, link
	out=$(run '
		gate_probe open-write .git/config; gate_probe open-trunc .git/config; gate_probe truncate .git/config
		gate_probe unlink .git/config; gate_probe rename .git/config moved; gate_probe link .git/config hard
		echo s >swap; gate_probe rename-exchange swap .git/config; gate_probe rename swap .git/config
		gate_probe open-creat .git/hooks/pre-commit; gate_probe rmdir .git/hooks; gate_probe rename .git/hooks h2
		gate_probe rename .git .git-old; gate_probe rename-exchange srcd .git 2>/dev/null
		mkdir srcd; gate_probe rename-exchange srcd .git
		ln -s .git/config via-link; gate_probe open-write via-link; gate_probe truncate via-link
		gate_probe open-write /proc/self/cwd/.git/config
		exec 7<.git/config; gate_probe open-write /proc/self/fd/7; gate_probe open-write /dev/fd/7')
	# below ABI 3 the truncation guard refuses truncate(2) everywhere (EPERM)
	[ -n "$ABI" ] && [ "$ABI" -lt 3 ] && out=$(sed 's/^truncate: EPERM$/truncate: EACCES/' <<<"$out")
	bad=$(grep -E '^[a-z0-9-]+: ' <<<"$out" | grep -v ': EACCES$' | grep -v '^rename-exchange: ENOENT$')
	check "$tag every write route to .git/config, .git/hooks and .git is EACCES (incl. symlink, /proc/self/cwd, /proc/self/fd)" \
		test -z "$bad"
	[ -z "$bad" ] || sed 's/^/    unexpected | /' <<<"$bad" | head -8
	check "$tag .git/config and the hooks are unchanged on disk" test "$before" = "$(sums | grep -v -e src -e swap -e via-link -e README -e Makefile -e m.txt -e t.txt -e '^wt' -e allowed -e renamed -e linked -e named-tmp -e sock-ok)"
}

# outside_round: the outside replaces the protected files while a session
# waits; the session then tries to write them
outside_round() {
	make_home
	echo 'export A=1' >"$H/proj/.envrc"; chown "$OWNER" "$H/proj/.envrc"
	rm -f /mnt/go /mnt/done
	(run 'while [ ! -e /mnt/go ]; do sleep 0.05; done
		echo evil >>.git/config && echo ESCAPED-config
		echo evil >>.envrc && echo ESCAPED-envrc
		echo evil >.git/hooks/pre-commit && echo ESCAPED-hook
		gate_probe open-write .envrc; gate_probe truncate .git/config
		touch newfile && echo CREATE-OK
		: >/mnt/done 2>/dev/null; echo DONE' >/mnt/out.txt) &
	sleep 1
	(cd "$H/proj" && git -c safe.directory='*' config core.editor vi &&          # lock + rename over .git/config
		printf 'export A=2\n' >.envrc.tmp && mv .envrc.tmp .envrc &&   # an editor's save
		sed -i 's/A=2/A=3/' .envrc &&                         # sed -i: a new file renamed over
		rm -rf .git/hooks && mkdir .git/hooks && chown -R "$OWNER" .git .envrc) ||
		fail "[$ID, $MODE] the outside replacements could not be made"
	before=$(cd "$H/proj" && sha256sum .git/config .envrc; ls -A .git/hooks)
	: >/mnt/go
	wait
	out=$(cat /mnt/out.txt)
	check "[$ID, $MODE] after git config, an editor's save, sed -i and rm -rf+mkdir outside, the running session still cannot write them" \
		bash -c 'grep -q DONE <<<"$1" && grep -q CREATE-OK <<<"$1" && ! grep -q ESCAPED <<<"$1" && [ "$(grep -cE ": (EACCES|EPERM)$" <<<"$1")" -eq 2 ]' _ "$out"
	check "[$ID, $MODE] ... and the files are as the outside left them" \
		test "$before" = "$(cd "$H/proj" && sha256sum .git/config .envrc; ls -A .git/hooks)"
	grep -q DONE <<<"$out" && ! grep -q ESCAPED <<<"$out" || sed 's/^/    | /' <<<"$out"
}

cp "$TSBRUN" /mnt/sbrun-in
for ID in root user; do
	if [ $ID = root ]; then H=/home/root-g OWNER=0:0; else H=/home/user-g OWNER=65534:65534; fi
	for MECH in "" complement; do
		if [ -n "$MECH" ]; then MECHOPT=(--mechanism "$MECH"); else MECHOPT=(); fi
		ABI=
		round
	done
	MECHOPT=()
	MECH=
	for ABI in 1 2 3 5; do round; done
	ABI=

	# ---- the plan names the mechanism, and says nothing is narrowed ----
	make_home
	out=$(cd "$H/proj" && as_id env -i PATH=/usr/bin:/bin HOME="$H" "$TSBRUN" --plan $P/gate.sb 2>&1)
	check "[$ID] --plan: the write gate decides the protected names, present or absent" \
		bash -c 'grep -q "^# write gate: [0-9]* names" <<<"$1" && grep -q "^mask gate      $2/proj/.envrc (deny write; absent: its creation too, gate.sbx:" <<<"$1"' _ "$out" "$H"
	check "[$ID] --plan: no narrowing of the workspace is left" \
		bash -c '! grep -q -e "narrower: $2/proj" -e "new files cannot be created" <<<"$1"' _ "$out" "$H"
	out=$(cd "$H/proj" && as_id env -i PATH=/usr/bin:/bin HOME="$H" "$TSBRUN" --write-gate off --plan $P/gate.sb 2>&1)
	check "[$ID] --write-gate off: back to masks and the narrowing, said" \
		bash -c 'grep -q "new files cannot be created directly in .*$2/proj" <<<"$1"' _ "$out" "$H"

	out=$(as_id "$TSBRUN" --doctor 2>&1)
	check "[$ID] --doctor names the write gate and the masks" \
		bash -c 'grep -q "^write gate: available" <<<"$1" && grep -q "^masks: available" <<<"$1"' _ "$out"

	# ---- traced: the same refusals, each reported with its policy line ----
	make_home
	out=$(cd "$H/proj" && as_id env -i PATH=/mnt:/usr/bin:/bin HOME="$H" LANG=C "$TSBRUN" --trace $P/gate.sb -- \
		/bin/bash --noprofile --norc -c 'gate_probe open-creat .envrc; gate_probe mkdir .vscode; gate_probe open-write .git/config; gate_probe open-creat fine; cat a.txt >/dev/null && echo READ-OK' 2>&1)
	line=$(grep -n 'exactly workspace/.git$' $P/gate.sbx | cut -d: -f1)
	check "[$ID] traced: the gate's refusals are the same, each reported with the policy line" \
		bash -c '[ "$(grep -c ": EACCES$" <<<"$1")" -eq 3 ] && grep -q "^open-creat: ok$" <<<"$1" && grep -q READ-OK <<<"$1" &&
			grep -q "denied create $2/proj/.envrc — gate.sbx:$3" <<<"$1" && grep -q "denied create $2/proj/.vscode — gate.sbx:$3" <<<"$1" &&
			grep -q "denied write $2/proj/.git/config — gate.sbx:$3" <<<"$1" && ! grep -q "denied.*fine" <<<"$1"' _ "$out" "$H" "$line"
	grep -q "denied create $H/proj/.envrc" <<<"$out" || sed 's/^/    | /' <<<"$out" | tail -8
	out=$(cd "$H/proj" && as_id env -i PATH=/mnt:/usr/bin:/bin HOME="$H" LANG=C "$TSBRUN" --trace $P/omp.sb -- \
		/bin/bash --noprofile --norc -c 'gate_probe open-creat .envrc; gate_probe open-write .git/config' 2>&1)
	check "[$ID] traced, default protection: the fix names the group to lift, not a grant" \
		bash -c 'grep -q "denied create $2/proj/.envrc — protect/direnv.sbx:[0-9]*.*; to allow: OMP_SANDBOX_PROTECT without \"direnv\"" <<<"$1" &&
			grep -q "denied write $2/proj/.git/config — omp.sbx:[0-9]*.*; to allow: OMP_SANDBOX_PROTECT without \"git\"" <<<"$1"' _ "$out" "$H"

	# ---- racing threads ----
	make_home
	out=$(run 'gate_probe race .envrc aaaaaa 20000; echo rc=$?')
	check "[$ID] a thread flipping the path in memory never creates the protected name" \
		bash -c 'grep -q "^rc=0$" <<<"$1" && grep -q "^race: [1-9][0-9]* of 20000" <<<"$1"' _ "$out"
	out2=$(run 'gate_probe race-link "$PWD/l" "$PWD/ok-target" "$PWD/.envrc" 20000; echo rc2=$?')
	check "[$ID] a symlink swapped at the last name never lets an open create the protected name" \
		bash -c 'grep -q "^rc2=0$" <<<"$1" && [ ! -e "$2/proj/.envrc" ]' _ "$out2" "$H"
	sed 's/^/    | /' <<<"$out$out2" | grep -e race -e rc

	# ---- the outside world changes under a running session ----
	for MODE in auto complement abi1 abi5; do
		MECHOPT=(); ABI=
		case $MODE in complement) MECHOPT=(--mechanism complement) ;; abi1) ABI=1 ;; abi5) ABI=5 ;; esac
		outside_round
	done
	MECHOPT=(); ABI=

	# ---- inside another supervised sandbox the gate cannot start: said ----
	make_home
	out=$(run "/mnt/sbrun-in --plan $P/gate.sb 2>&1 | grep '^# write gate'")
	check "[$ID] nested: the inner sbrun's plan says the gate is unavailable, and why" \
		grep -q '^# write gate: unavailable: a seccomp listener exists already' <<<"$out"
done

echo "suite-gate: $npass passed, $nfail failed"
[ "$nfail" -eq 0 ]
