#!/usr/bin/env bash
# suite-masks.sh - Linux masks (docs/linux.md, "Masks"): real work under a
# deny inside an allowed tree, as root and as uid 65534.
#  * omp-protect-git.sbx: real git (add, commit, branch, checkout, rebase,
#    init of a nested repository), touch/mkdir/mv/rm at the top of the
#    workspace, a Python venv, ls; .git/hooks and .git/config unchanged.
#  * a .env deny: listing and new files beside it work, its content never
#    appears, it cannot be moved, replaced or linked.
#  * a deny of a path that does not exist narrows its directory: warned at
#    launch, in words; the fallback without namespaces is warned and
#    --mechanism masks refuses.
#  * the cookbook's git and .env recipes, run from the text of
#    docs/cookbook.md (as root and as uid 65534).
#  * EXDEV across bound-back trees with real tools (mv, git, npm, pip).
#  * the two plan bugs: an unrelated bind mount is not an alias of /; a
#    procfs, sysfs or devtmpfs below an allowed root gets no write rule.
# Runs in a private mount namespace: tmpfs /home and /mnt, a passwd copy
# naming the throwaway homes (the real /root is never touched).
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
. "$ROOT/tests/lib/hermetic-git.sh"   # the suite's own git: no user or system config
B=${B:-build}
case $B in /*) ;; *) B=$ROOT/$B ;; esac
SBRUN=$B/bin/sbrun
SBC=$B/bin/sbc
SHIM=$B/test-bin/nouserns_shim

if [ -z "${SBX_MASKS_IN_NS:-}" ]; then
	for f in "$SBRUN" "$SBC" "$SHIM"; do [ -x "$f" ] || { echo "FAIL: missing $f"; exit 1; }; done
	[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root for a private mount namespace"; exit 77; }
	command -v git >/dev/null || { echo "SKIP: git missing"; exit 77; }
	if ! "$SBRUN" --doctor >/dev/null 2>&1; then echo "SKIP: Landlock unavailable"; exit 77; fi
	SBX_MASKS_IN_NS=1 exec unshare -m --propagation private bash "$0" "$@"
fi

npass=0 nfail=0
pass() { echo "PASS: $*"; npass=$((npass + 1)); }
fail() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
check() { local what=$1; shift; if "$@"; then pass "$what"; else fail "$what"; fi; }

mount -t tmpfs -o mode=0755 tmpfs /home || exit 1
mount -t tmpfs -o mode=0755 tmpfs /mnt || exit 1
S=/mnt/.state; mkdir -p $S; chmod 0711 $S
awk -F: -v OFS=: '$3 == 0 { $6 = "/home/root-m" } $3 == 65534 { $6 = "/home/user-m" } { print }' \
	/etc/passwd >$S/passwd
chmod 0644 $S/passwd
mount --bind $S/passwd /etc/passwd || exit 1
P=/mnt/profiles; mkdir -p $P
cp -r "$ROOT"/examples/. $P/
printf 'include "omp.sbx";\ndeny read exactly workspace/.env;\n' >$P/omp-env.sbx
for x in omp omp-protect-git omp-env; do
	"$SBC" -o $P/$x.sb $P/$x.sbx || { echo "FAIL: sbc $x"; exit 1; }
done
chmod -R a+rX $P
cleanup() {
	while read -r m; do umount -l "$m" 2>/dev/null; done < <(awk '$2 ~ /^\/tmp\/sbx-masks-/ {print $2}' /proc/self/mounts)
	rm -rf /tmp/sbx-masks-* 2>/dev/null
}
trap cleanup EXIT

as_id() {
	if [ "$ID" = user ]; then setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"; else "$@"; fi
}
# run PROFILE CMD: run CMD (a bash script) under sbrun from the workspace
run() {
	local prof=$1; shift
	(cd "$H/proj" && as_id env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$H" LANG=C \
		${RUNENV:-} "$SBRUN" "${MECHOPT[@]}" $P/$prof.sb -- /bin/bash --noprofile --norc -c "$*" 2>&1)
}
MECHOPT=()

make_home() {
	rm -rf "$H"; mkdir -p "$H/proj" "$H/.omp" "$H/.ssh"
	echo "SBX-KEY-$ID" >"$H/.ssh/id_rsa"
	(cd "$H/proj" && git init -q -b main . && echo one >a.txt && git add a.txt &&
		git -c user.name=t -c user.email=t@x commit -qm one && printf '#!/bin/sh\nexit 0\n' >.git/hooks/pre-commit &&
		chmod +x .git/hooks/pre-commit)
	chown -R "$OWNER" "$H"
}
sums() { (cd "$H/proj" && sha256sum .git/config .git/hooks/* 2>/dev/null); }

for ID in root user; do
	if [ $ID = root ]; then H=/home/root-m OWNER=0:0; else H=/home/user-m OWNER=65534:65534; fi

	# ---- omp-protect-git: the protected names exist (masks need paths) ----
	make_home
	for f in .gitmodules .envrc .bashrc .bash_profile .zshrc .zshenv .zprofile .profile; do
		: >"$H/proj/$f"
	done
	chown "$OWNER" "$H"/proj/.[a-z]*
	before=$(sums)
	out=$(run omp-protect-git '
		set -e
		git() { command git -c user.name=t -c user.email=t@x "$@"; }
		echo two >>a.txt; git add a.txt; git commit -qm two
		git branch feature; git checkout -q feature
		echo f >f.txt; git add f.txt; git commit -qm feature
		git checkout -q main; echo m >m.txt; git add m.txt; git commit -qm main
		git checkout -q feature; git rebase -q main; git checkout -q main
		touch newfile; mkdir newdir; mv newfile newdir/; rm -r newdir
		ls >/dev/null; ls / >/dev/null
		(mkdir nested && cd nested && git init -q && echo n >n && git add n && git commit -qm n)
		python3 -m venv .venv && .venv/bin/python -c "print(1)" >/dev/null
		echo WORKLOAD-OK
		set +e
		echo evil >>.git/hooks/pre-commit && echo ESCAPED-hook
		echo evil >.git/hooks/post-checkout && echo ESCAPED-newhook
		git config core.hooksPath /tmp && echo ESCAPED-config
		mv .git .git-old && echo ESCAPED-mvgit
		rm -rf .git/hooks && echo ESCAPED-rmhooks
		echo x >>.envrc && echo ESCAPED-envrc
		true')
	check "[$ID] omp-protect-git: git add/commit/branch/checkout/rebase, touch/mkdir/mv/rm, venv, ls work" \
		grep -q WORKLOAD-OK <<<"$out"
	[ -n "${SBX_MASKS_VERBOSE:-}" ] && sed 's/^/    | /' <<<"$out"
	check "[$ID] omp-protect-git: hooks, .git/config and .envrc could not be changed" \
		bash -c '! grep -q ESCAPED <<<"$1"' _ "$out"
	check "[$ID] omp-protect-git: .git/config and hooks unchanged on disk" \
		test "$before" = "$(sums)"
	check "[$ID] omp-protect-git: the commits landed" \
		bash -c '[ "$(git -c safe.directory="*" -C "$1" log --oneline main | wc -l)" -ge 3 ] && git -c safe.directory="*" -C "$1" log --oneline feature | grep -q feature' _ "$H/proj"
	grep -q WORKLOAD-OK <<<"$out" || sed 's/^/    | /' <<<"$out" | tail -15

	# ---- omp-protect-git: missing protected names: the write gate decides
	# them by name, nothing is narrowed; without the gate, the narrowing
	# is warned ----
	make_home
	out=$(run omp-protect-git 'touch newfile 2>&1 && echo CREATED; touch .envrc 2>&1 || echo ENVRC-REFUSED; git add a.txt && echo ADDED')
	check "[$ID] a deny of a missing path: no narrowing, new files at the top work, the name is refused (write gate)" \
		bash -c 'grep -q CREATED <<<"$1" && grep -q ENVRC-REFUSED <<<"$1" && ! grep -q "narrower than the policy" <<<"$1"' _ "$out"
	# (the default protection off: its absent names in .git would narrow
	# .git too, which is why the gate is the default)
	MECHOPT=(--write-gate off)
	out=$(RUNENV=OMP_SANDBOX_PROTECT=none run omp-protect-git 'touch newfile 2>&1 && echo CREATED; git add a.txt && echo ADDED')
	MECHOPT=()
	check "[$ID] --write-gate off: a deny of a missing path is warned at launch, with the directory and the fix" \
		bash -c 'grep -q "new files cannot be created directly in $2" <<<"$1" && grep -q "create them before the launch" <<<"$1"' _ "$out" "$H/proj"
	check "[$ID] ... and git add still works there (.git is masked, not expanded)" grep -q ADDED <<<"$out"

	# ---- a .env deny ----
	make_home
	echo "SBX-ENV-SECRET-$ID" >"$H/proj/.env"; chown "$OWNER" "$H/proj/.env"
	out=$(run omp-env '
		ls -a | grep -qx .env && echo LISTED
		git status --porcelain >/dev/null && echo GITSTATUS
		echo back >new.txt && [ "$(cat new.txt)" = back ] && mkdir d && mv new.txt d/ && rm -r d && echo CREATED
		cat .env 2>&1 | grep -q "Permission denied" && echo CAT-DENIED; cp .env /tmp/stolen-$$ && cat /tmp/stolen-$$
		mv .env x && echo ESCAPED-mv
		rm .env && echo ESCAPED-rm
		ln .env hard && cat hard && echo ESCAPED-ln
		ln -sf /etc/passwd .env && echo ESCAPED-symlink
		echo x >.env && echo ESCAPED-write
		python3 -m venv .venv && echo VENV
		true')
	check "[$ID] .env deny: listing, git status, create/read back/mv/rm beside it, venv work" \
		bash -c 'for w in LISTED GITSTATUS CREATED VENV CAT-DENIED; do grep -q $w <<<"$1" || exit 1; done' _ "$out"
	check "[$ID] .env deny: its content never appears; no move, unlink, link, replace or write" \
		bash -c '! grep -q -e SBX-ENV-SECRET -e ESCAPED <<<"$1"' _ "$out"
	check "[$ID] .env deny: the file is unchanged on disk" \
		test "$(cat "$H/proj/.env")" = "SBX-ENV-SECRET-$ID"
	grep -q VENV <<<"$out" || sed 's/^/    | /' <<<"$out" | tail -15

	# ---- L8/L9 gone: ls /, listing around the home, new entries beside it ----
	mkdir -p /home/late-$ID
	out=$(run omp 'ls / >/dev/null && echo ROOT-LISTED; ls /home | grep -q late && echo HOME-LISTED; ls "$HOME" >/dev/null 2>&1 || echo HOME-DENIED; cat /home/late-'$ID'/f')
	echo late >/home/late-$ID/f
	out2=$(run omp '
		sleep 0; cat /home/late-'$ID'/f')
	check "[$ID] ls / and ls /home work; \$HOME stays unlistable" \
		bash -c 'grep -q ROOT-LISTED <<<"$1" && grep -q HOME-LISTED <<<"$1" && grep -q HOME-DENIED <<<"$1"' _ "$out"
	check "[$ID] a new entry beside \$HOME is readable as the policy says" grep -q late <<<"$out2"
	rm -rf /home/late-$ID

	# ---- fallback: no namespaces ----
	make_home
	out=$(cd "$H/proj" && as_id env -i PATH=/usr/bin:/bin HOME="$H" "$SHIM" "$SBRUN" $P/omp-protect-git.sb -- /bin/true 2>&1)
	check "[$ID] without namespaces: the fallback is warned at launch" \
		bash -c 'grep -q "masks unavailable" <<<"$1"' _ "$out"
	out=$(cd "$H/proj" && as_id env -i PATH=/usr/bin:/bin HOME="$H" "$SHIM" "$SBRUN" --plan $P/omp.sb 2>&1)
	check "[$ID] without namespaces: --plan names the complement and why" \
		bash -c 'grep -q "^# mechanism: complement expansion; masks unavailable" <<<"$1"' _ "$out"
	rc=0; out=$(cd "$H/proj" && as_id env -i PATH=/usr/bin:/bin HOME="$H" "$SHIM" "$SBRUN" --mechanism masks $P/omp.sb -- /bin/true 2>&1) || rc=$?
	check "[$ID] --mechanism masks refuses (78) where namespaces cannot be had" \
		bash -c '[ "$1" = 78 ] && grep -q "masks were demanded" <<<"$2"' _ "$rc" "$out"
	out=$(cd "$H/proj" && as_id env -i PATH=/usr/bin:/bin HOME="$H" "$SBRUN" --plan $P/omp.sb 2>&1)
	check "[$ID] --plan names the masks" \
		bash -c 'grep -q "^# mechanism: masks" <<<"$1" && grep -q "^mask hide-dir  $2 " <<<"$1"' _ "$out" "$H"
	check "[$ID] --plan: a private /dev/shm and its rule" \
		bash -c 'grep -q "^  private /dev/shm" <<<"$1" && grep -q "^rule private-shm /dev/shm .*make_reg" <<<"$1"' _ "$out"

	# ---- /dev/shm: private with masks; without them denied, and the trace says why ----
	shm_py='import multiprocessing; print("POOL", multiprocessing.Pool(2).map(abs, [-3]))'
	out=$(run omp "python3 -c '$shm_py'; mount | grep -c ' /dev/shm ' ")
	check "[$ID] masks: multiprocessing.Pool works (a tmpfs of its own on /dev/shm)" \
		bash -c 'grep -q "POOL \[3\]" <<<"$1"' _ "$out"
	out=$(cd "$H/proj" && as_id env -i PATH=/usr/bin:/bin HOME="$H" "$SHIM" "$SBRUN" --trace $P/omp.sb -- \
		/usr/bin/python3 -c "$shm_py" 2>&1)
	check "[$ID] no namespaces: /dev/shm is denied, and the trace names the cause and --allow-shm, not 'no variable'" \
		bash -c '! grep -q POOL <<<"$1" && grep -q "denied .* /dev/shm.* without masks .* no private /dev/shm; sbrun --allow-shm" <<<"$1" &&
			! grep "/dev/shm" <<<"$1" | grep -q "no variable allows it"' _ "$out"
	out=$(cd "$H/proj" && as_id env -i PATH=/usr/bin:/bin HOME="$H" "$SHIM" "$SBRUN" --allow-shm $P/omp.sb -- \
		/usr/bin/python3 -c "$shm_py" 2>&1)
	check "[$ID] no namespaces, --allow-shm: the host's /dev/shm, and the Pool works" grep -q "POOL \[3\]" <<<"$out"
done

# ---- the cookbook's recipes, run from the text of docs/cookbook.md ----
# block HEADING LANG N: the Nth fenced LANG block below the "## HEADING" line
block() {
	awk -v h="## $1" -v lang="$2" -v want="$3" '
		index($0, "## ") == 1 { on = ($0 == h) }
		on && /^```/ { if (inb) { inb = 0; next } if ($0 == "```" lang) { n++; inb = (n == want); next } }
		inb { print }' "$ROOT/docs/cookbook.md"
}
# recipe_sh DIR SCRIPT: the recipe's shell lines in DIR with sbc/sbrun on PATH
recipe_sh() {
	(cd "$1" && as_id env -i PATH=$CB/bin:/usr/local/bin:/usr/bin:/bin HOME="$H" LANG=C \
		GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@x GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@x \
		/bin/bash --noprofile --norc -c "$2" 2>&1)
}
CB=/mnt/cookbook; mkdir -p $CB/bin
ln -sf "$SBRUN" $CB/bin/sbrun; ln -sf "$SBC" $CB/bin/sbc
git_sbx=$(block 'Protect `.git/hooks` (and other files that run code)' sbx 1)
git_sh1=$(block 'Protect `.git/hooks` (and other files that run code)' sh 1)
git_sh2=$(block 'Protect `.git/hooks` (and other files that run code)' sh 2)
env_sbx=$(block 'Keep a `.env` unreadable' sbx 1)
env_sh=$(block 'Keep a `.env` unreadable' sh 1)
for v in git_sbx git_sh1 git_sh2 env_sbx env_sh; do
	[ -n "${!v}" ] || fail "cookbook: block $v not found in docs/cookbook.md"
done
for ID in root user; do
	if [ $ID = root ]; then H=/home/root-m OWNER=0:0; else H=/home/user-m OWNER=65534:65534; fi
	make_home
	cp -r $P/omp.sbx $P/tools $P/protect "$H/proj/"
	printf '%s\n' "$git_sbx" >"$H/proj/omp-protect-git.sbx"
	echo edit >>"$H/proj/a.txt"
	# as root on a repository make_home gave to the user: git refuses a
	# repository of another owner unless told it is safe
	git -c safe.directory='*' -C "$H/proj" config user.name t &&
		git -c safe.directory='*' -C "$H/proj" config user.email t@x ||
		fail "[$ID] cookbook: cannot set the test repository's identity"
	chown -R "$OWNER" "$H/proj"
	before=$(sums); head0=$(git -c safe.directory="*" -C "$H/proj" rev-parse HEAD)
	comp=$(recipe_sh "$H/proj" "sbc omp-protect-git.sbx -o omp-protect-git.sb")
	out=$(recipe_sh "$H/proj" "$git_sh2")
	out=$out$(recipe_sh "$H/proj" "sbrun omp-protect-git.sb -- /bin/sh -c 'echo x >.git/hooks/pre-commit && echo HOOK-WRITTEN; echo y >>.git/config && echo CONFIG-WRITTEN'")
	head1=$(git -c safe.directory="*" -C "$H/proj" rev-parse HEAD 2>/dev/null)
	check "[$ID] cookbook (docs/cookbook.md): the protect-git recipe as written commits, with no narrowing warned" \
		bash -c '[ "$1" != "$2" ] && ! grep -q -e "narrower than the policy" -e HOOK-WRITTEN -e CONFIG-WRITTEN <<<"$3"' _ "$head0" "$head1" "$comp$out"
	[ "$head0" != "$head1" ] || sed 's/^/    | /' <<<"$comp$out" | tail -12
	check "[$ID] cookbook: after the recipe .git/hooks and .git/config are unchanged" test "$before" = "$(sums)"
	mapfile -t git_lines <<<"$git_sh1"
	ex=$(recipe_sh "$H/proj" "cd $P && ${git_lines[0]}")
	check "[$ID] cookbook: the recipe's first explain line says what its comment says" \
		bash -c 'line=$(sed -n "1s/.*# deny, line \([0-9]*\).*/\1/p" <<<"$2"); [ -n "$line" ] && grep -q "^deny:" <<<"$1" && grep -q "policy: omp-protect-git.sbx:$line\$" <<<"$1"' _ "$ex" "$git_sh1"
	ex=$(recipe_sh "$H/proj" "cd $P && ${git_lines[1]}")
	check "[$ID] cookbook: the recipe's second explain line says allow" grep -q "^allow:" <<<"$ex"

	make_home
	cp -r $P/omp.sbx $P/tools $P/protect "$H/proj/"
	printf '%s\n' "$env_sbx" >"$H/proj/omp-env.sbx"
	echo "API_KEY=SBX-ENV-SECRET-$ID" >"$H/proj/.env"
	chown -R "$OWNER" "$H/proj"
	# the recipe's lines one by one: each is checked by what its comment says
	mapfile -t env_lines <<<"$env_sh"
	out0=$(recipe_sh "$H/proj" "${env_lines[0]}"); rc0=$?
	out1=$(recipe_sh "$H/proj" "${env_lines[1]}"); rc1=$?
	out2=$(recipe_sh "$H/proj" "${env_lines[2]}"); rc2=$?
	check "[$ID] cookbook (docs/cookbook.md): the .env recipe compiles as written" test "$rc0" -eq 0
	check "[$ID] cookbook: '${env_lines[1]%%#*}' lists .env, no narrowing warned" \
		bash -c '[ "$2" -eq 0 ] && grep -qx .env <<<"$1" && ! grep -q "narrower than the policy" <<<"$1"' _ "$out1" "$rc1"
	check "[$ID] cookbook: '${env_lines[2]%%#*}' is Permission denied and shows no secret" \
		bash -c '[ "$2" -ne 0 ] && grep -q "Permission denied" <<<"$1" && ! grep -q SBX-ENV-SECRET <<<"$1"' _ "$out2" "$rc2"
done

# ---- EXDEV across a bound-back tree (docs/limitations.md L19): real tools ----
for ID in root user; do
	if [ $ID = root ]; then H=/home/root-m OWNER=0:0; else H=/home/user-m OWNER=65534:65534; fi
	make_home
	# the effective Landlock ABI (suite-abi runs this suite at emulated ABI 1)
	eff_abi=$(cd "$H/proj" && as_id env -i PATH=/usr/bin:/bin HOME="$H" "$SBRUN" "${MECHOPT[@]}" --plan $P/omp.sb 2>&1 |
		sed -n '1s/.*effective ABI \([0-9]*\).*/\1/p')
	mkdir -p "$H/.npm" "$H/proj/pkg"
	printf '{"name":"tiny-pkg","version":"1.0.0"}\n' >"$H/proj/pkg/package.json"
	echo 'module.exports = 42;' >"$H/proj/pkg/index.js"
	chown -R "$OWNER" "$H"
	out=$(run omp '
		echo moved >~/.omp/f && mv ~/.omp/f ./f && [ "$(cat f)" = moved ] && [ ! -e ~/.omp/f ] && echo MV-OK
		t=$(mktemp) && python3 -c "import os, sys; os.rename(sys.argv[1], \"renamed\")" "$t" 2>&1 | tail -1
		t=$(mktemp) && python3 -c "import shutil, sys; shutil.move(sys.argv[1], \"moved2\")" "$t" && [ -f moved2 ] && echo SHUTIL-OK
		git mv a.txt b.txt && git -c user.name=t -c user.email=t@x commit -qm mv && echo GIT-MV-OK
		if command -v npm >/dev/null; then
			echo "NPM-VERSION $(npm --version 2>/dev/null)"
			# a subshell: a failed step must not leave the next one in another directory
			( (cd pkg && npm pack --silent >/dev/null) && mkdir app && cd app && echo "{}" >package.json &&
			npm install --offline --no-audit --no-fund ../pkg/tiny-pkg-1.0.0.tgz >/dev/null 2>&1 &&
			node -e "process.exit(require(\"tiny-pkg\") === 42 ? 0 : 1)" && echo NPM-OK )
		else echo NPM-MISSING; fi
		w=$(ls /usr/share/python-wheels/setuptools-*.whl 2>/dev/null | head -1)
		if [ -n "$w" ]; then
			python3 -m venv .venv && .venv/bin/pip install -q --no-index --force-reinstall --no-deps "$w" 2>&1 | tail -1 &&
			.venv/bin/python -c "import setuptools" && echo PIP-OK
		else echo PIP-MISSING; fi')
	check "[$ID] EXDEV: mv from ~/.omp into the workspace copies (MV-OK)" grep -q MV-OK <<<"$out"
	check "[$ID] EXDEV: git mv and commit in the workspace work" grep -q GIT-MV-OK <<<"$out"
	check "[$ID] EXDEV: Python's shutil.move from /tmp into the workspace copies" grep -q SHUTIL-OK <<<"$out"
	check "[$ID] EXDEV: a bare os.rename from /tmp into the workspace fails with EXDEV (documented)" \
		grep -q "Errno 18" <<<"$out"
	npmv=$(sed -n 's/^NPM-VERSION \([0-9]*\).*/\1/p' <<<"$out")
	if grep -q NPM-MISSING <<<"$out"; then echo "SKIP: [$ID] npm missing"
	elif [ "$eff_abi" = 1 ] && [ -n "$npmv" ] && [ "$npmv" -lt 10 ]; then
		# npm 9 (Debian 12's) hard-links its cache into place: EXDEV without
		# Landlock's REFER right, as --doctor says (docs/linux.md, suite-abi)
		check "[$ID] EXDEV: npm $npmv install at ABI 1 fails, as --doctor reports (npm 10+ works)" \
			bash -c '! grep -q NPM-OK <<<"$1"' _ "$out"
	else check "[$ID] EXDEV: npm install of a local package (cache in ~/.npm) works" grep -q NPM-OK <<<"$out"; fi
	if grep -q PIP-MISSING <<<"$out"; then echo "SKIP: [$ID] no wheel in /usr/share/python-wheels"
	else check "[$ID] EXDEV: pip install of a wheel into a venv in the workspace works" grep -q PIP-OK <<<"$out"; fi
	grep -q -e MV-OK <<<"$out" || echo "$out" | head -20
done

# ---- the two plan bugs (root: they need mounts made before the launch) ----
ID=root H=/home/root-m OWNER=0:0
make_home
X=$(mktemp -d /tmp/sbx-masks-XXXXXX)
mkdir -p $X/bind $X/chroot/proc
mount --bind /usr/share/doc $X/bind
for mech in complement masks; do
	MECHOPT=(--mechanism $mech)
	plan=$(cd "$H/proj" && "$SBRUN" --mechanism $mech --plan $P/omp.sb 2>&1)
	check "[$mech] an unrelated bind mount is not an alias of /" \
		bash -c '! grep -q "bind-mount alias of /," <<<"$1"' _ "$plan"
	out=$(run omp "touch $X/new-$mech && echo TMP-WRITABLE")
	check "[$mech] /tmp stays writable with a bind mount below it" grep -q TMP-WRITABLE <<<"$out"
done
umount $X/bind
mount -t proc proc $X/chroot/proc
for mech in complement masks; do
	MECHOPT=(--mechanism $mech)
	out=$(run omp "echo x > $X/chroot/proc/self/comm && echo ESCAPED-comm; cat $X/chroot/proc/self/status >/dev/null && echo PROC-READABLE")
	check "[$mech] a procfs below /tmp gets no write right (/tmp/.../proc/self/comm)" \
		bash -c '! grep -q ESCAPED-comm <<<"$1" && grep -q PROC-READABLE <<<"$1"' _ "$out"
done
MECHOPT=()
umount $X/chroot/proc
# sysfs and devtmpfs below /tmp: no rule there may carry a right to write,
# create or use devices (the canonical /sys and /dev have none of those)
mkdir -p $X/chroot/sys $X/chroot/dev
if mount -t sysfs sysfs $X/chroot/sys && mount -t devtmpfs devtmpfs $X/chroot/dev; then
	for mech in complement masks; do
		plan=$(cd "$H/proj" && "$SBRUN" --mechanism $mech --plan $P/omp.sb 2>&1)
		check "[$mech] a sysfs or devtmpfs below /tmp gets no write, create or device right" \
			bash -c '! grep -E "^rule [a-z]+ $1/(sys|dev)(/| ).*(write_file|make_|remove_|ioctl_dev)" <<<"$2"' _ "$X/chroot" "$plan"
		out=$(run omp "head -c1 $X/chroot/dev/zero >/dev/null && echo DEVTMPFS-OPENED; ls $X/chroot/sys >/dev/null && echo SYSFS-LISTED")
		check "[$mech] ... a device there cannot be opened (its /tmp path is no way around the /dev allowlist)" \
			bash -c '! grep -q DEVTMPFS-OPENED <<<"$1"' _ "$out"
	done
	umount $X/chroot/sys $X/chroot/dev
else
	echo "SKIP: cannot mount sysfs and devtmpfs here"
fi

echo
echo "masks: $npass passed, $nfail failed"
[ $nfail -eq 0 ]
