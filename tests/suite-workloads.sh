#!/usr/bin/env bash
# suite-workloads.sh: everyday work under the default policy (issue 12,
# docs/cookbook.md): the real git, npm/npx, node, bun, python3 -m venv + pip,
# make and cc run under omp-sandboxed with NO extra variable, from a
# workspace inside a throwaway home that looks real (tests/lib/fakehome.sh:
# private mount namespace, tmpfs /home).  Packages come from local sources
# (a tarball made by `npm pack`, a wheel built in the test and installed
# with --no-index --find-links); at the end, the real registries where this
# machine reaches them (npm; node-gyp's headers, pip: SKIP with the reason
# where not), run with the documented `omp-sandboxed --sandbox-run`.  Each task must work; no secret's canary may
# ever appear; the user's real caches and configuration files must be
# byte-identical afterwards (sha256).  Runs as root, then again as uid 65534.
# Exit 0 pass, 77 skip, 1 fail.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-build}
case $B in /*) ;; *) B=$root/$B ;; esac
OS=$B/bin/omp-sandboxed
if [ "${SBX_SUITE_INSIDE:-}" != 1 ]; then
	[ -x "$OS" ] || { echo "SKIP: $OS not built"; exit 77; }
	for t in git npm node make cc; do
		[ -x /usr/bin/$t ] || { echo "SKIP: /usr/bin/$t missing (scripts/deps.sh installs it)"; exit 77; }
	done
	if ! /usr/bin/python3 -c 'import ensurepip, venv' 2>/dev/null; then
		echo "SKIP: /usr/bin/python3 without venv/ensurepip (python3-venv)"; exit 77
	fi
	# bun: the pinned npm package the self-test demo uses (outside any home)
	bundir=$(PATH=/usr/bin:/bin "$root/tests/lib/install-omp.sh" 2>/dev/null) || bundir=
	rc=0
	for who in root nobody; do
		args=(--)
		[ $who = nobody ] && args=(--as-nobody --)
		/usr/bin/env SBX_SUITE_INSIDE=1 B="$B" BUNDIR="$bundir" \
			"$root/tests/lib/fakehome.sh" "${args[@]}" /bin/bash "$root/tests/suite-workloads.sh"
		r=$?
		[ $r = 77 ] && exit 77
		[ $r != 0 ] && rc=1
	done
	exit $rc
fi

H=$HOME
me=$(id -un 2>/dev/null || id -u)
[ "$(getent passwd "$(id -u)" | cut -d: -f6)" = "$H" ] || { echo "FAIL: not inside fakehome"; exit 1; }
case $H in /home/*) ;; *) echo "FAIL: home $H is not the throwaway one"; exit 1 ;; esac
npass=0 nfail=0
pass() { echo "PASS: [$me] $*"; npass=$((npass + 1)); }
fail() { echo "FAIL: [$me] $*"; nfail=$((nfail + 1)); }

T=$(mktemp -d /tmp/sbx-workloads.XXXXXX)
trap 'rm -rf "$T"' EXIT
chmod 755 "$T"
mkdir -p "$T/bin"
# omp-sandboxed runs `omp`: here a stand-in that runs its arguments
printf '#!/bin/sh\nexec "$@"\n' >"$T/bin/omp"
chmod 755 "$T/bin/omp"

# ---- a home that looks real ----
canary() { printf 'CANARY-%s-%s\n' "$1" "$RANDOM$RANDOM"; }
mkdir -p "$H/.ssh" "$H/.aws" "$H/.gnupg" "$H/.config/gh" "$H/.docker" "$H/.kube" \
	"$H/.config/git" "$H/.local/bin" "$H/.npm/_cacache" "$H/.cache/pip/http" "$H/.cargo" \
	"$H/proj"
canary ssh >"$H/.ssh/id_rsa"
canary aws >"$H/.aws/credentials"
canary gnupg >"$H/.gnupg/private.key"
canary gitcred >"$H/.git-credentials"
canary gitcred-xdg >"$H/.config/git/credentials"
canary gh >"$H/.config/gh/hosts.yml"
canary docker >"$H/.docker/config.json"
canary kube >"$H/.kube/config"
canary netrc >"$H/.netrc"
canary pypirc >"$H/.pypirc"
canary cargo >"$H/.cargo/credentials.toml"
canary env >"$H/.env"
printf 'registry=http://registry.example.test/\n//registry.example.test/:_authToken=%s' "$(canary npmrc)" >"$H/.npmrc"
# every other entry of the sensitive list (compiler/common/sensitive.c) that
# is not a preset's read-only git configuration file
while IFS= read -r rel; do
	case $rel in .gitconfig | .config/git | .bashrc | .profile) continue ;; esac
	p=$H/$rel
	[ -e "$p" ] && continue
	case $rel in
	*/* | .ssh | .aws | .gnupg | .docker | .kube | .azure | .password-store | .mozilla)
		mkdir -p "$p" && canary "${rel//\//_}" >"$p/canary" ;;
	*) mkdir -p "$(dirname "$p")" && canary "${rel//\//_}" >"$p" ;;
	esac
done < <(sed -n 's/^[[:space:]]*{ "\([^"]*\)", "[^"]*" },$/\1/p' "$root/compiler/common/sensitive.c")
echo "# shell rc: runs outside the sandbox" >"$H/.bashrc"
echo "# login" >"$H/.profile"
cat >"$H/.gitconfig" <<'EOF'
[user]
	name = Ada Sandbox
	email = ada@example.test
[init]
	defaultBranch = main
[alias]
	last = log -1 --format=%s
EOF
printf '*.log\n' >"$H/.config/git/ignore"
printf '*.bin binary\n' >"$H/.config/git/attributes"
echo "cached-object" >"$H/.npm/_cacache/index"
echo "cached-wheel" >"$H/.cache/pip/http/entry"
printf '#!/bin/sh\necho mytool-ran "$@"\n' >"$H/.local/bin/mytool"
chmod 755 "$H/.local/bin/mytool"

# the user's real caches and configuration, outside the sandbox's reach
watched=("$H/.gitconfig" "$H/.config/git" "$H/.npmrc" "$H/.npm" "$H/.cache/pip" "$H/.bashrc"
	"$H/.profile" "$H/.local/bin" "$H/.ssh" "$H/.git-credentials")
snapshot() {
	for w in "${watched[@]}"; do
		find "$w" -printf '%y %m %p\n' | LC_ALL=C sort
		find "$w" -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum
	done
}
snapshot >"$T/before"

PATHV="$T/bin:$H/.local/bin:/usr/local/bin:/usr/bin:/bin"
# the pinned bun, first on PATH beside the test's omp: /usr/bin or
# /usr/local/bin may hold a global bun of another version
[ -n "${BUNDIR:-}" ] && ln -s "$BUNDIR/bun" "$T/bin/bun"
# sbx CMD...: omp-sandboxed from the workspace, a clean parent environment,
# no OMP_SANDBOX_* variable unless given before --; sets $out (stdout and
# stderr together) and $rc.
sbx() {
	local vars=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do vars+=("$1"); shift; done
	shift
	out=$(cd "$H/proj" && /usr/bin/env -i PATH="$PATHV" HOME="$H" USER="$me" LANG=C.UTF-8 \
		TERM=dumb "${vars[@]}" "$OS" /bin/sh -c "$1" 2>&1)
	rc=$?
	printf '%s\n' "$out" >>"$T/all-output"
}
ok_if() { # DESC (uses $rc and $out)
	if [ "$rc" = 0 ]; then pass "$1"; else fail "$1 (exit $rc): $(tail -c 600 <<<"$out")"; fi
}

# ---- git ----
sbx -- 'set -e; git init -q repo && cd repo && echo one >a.txt && echo noise >debug.log &&
	printf "\0\1" >x.bin && git add -A && git commit -qm first &&
	git log --format="%an <%ae>" && git status --short && git check-attr binary x.bin &&
	echo two >>a.txt && git diff --stat && git stash -q && git stash list &&
	git stash pop -q && git commit -qam second && git branch topic && git branch --list &&
	git worktree add -q ../repo-topic topic && git -C ../repo-topic log --oneline | wc -l &&
	git last'
if [ $rc = 0 ] && grep -qx 'Ada Sandbox <ada@example.test>' <<<"$out" &&
	! grep -q debug.log <<<"$out" && grep -q 'x.bin: binary: set' <<<"$out" &&
	grep -q 'stash@{0}' <<<"$out" && grep -qx '  topic' <<<"$out" && grep -qx second <<<"$out"; then
	pass "git init/add/commit/log/diff/stash/branch/worktree with the user's identity, ignore and attributes"
else fail "git workflow (exit $rc): $(tail -c 800 <<<"$out")"; fi

# ---- make and cc ----
sbx -- 'set -e; mkdir -p cdemo && cd cdemo &&
	printf "#include <stdio.h>\nint main(void){puts(\"hello from cc\");return 0;}\n" >hello.c &&
	printf "hello: hello.c\n\tcc -O1 -o hello hello.c\n" >Makefile && make -s && ./hello'
if [ $rc = 0 ] && grep -qx 'hello from cc' <<<"$out"; then pass "make + cc build and run a program"
else fail "make/cc (exit $rc): $(tail -c 600 <<<"$out")"; fi

# ---- npm, npx, node ----
sbx -- 'set -e; mkdir -p lib-a && cd lib-a && npm init -y >/dev/null &&
	printf "#!/usr/bin/env node\nconsole.log(\"lib-a says \" + require(\"./package.json\").name)\n" >cli.js &&
	node -e "const p=require(\"./package.json\");p.bin={\"lib-a\":\"cli.js\"};require(\"fs\").writeFileSync(\"package.json\",JSON.stringify(p))" &&
	npm pack --silent >/dev/null && ls lib-a-1.0.0.tgz'
ok_if "npm init + npm pack make a local package tarball"
sbx -- 'set -e; mkdir -p app && cd app && npm init -y >/dev/null &&
	npm install --no-audit --no-fund --loglevel=error ../lib-a/lib-a-1.0.0.tgz &&
	rm -rf node_modules && npm ci --no-audit --no-fund --loglevel=error &&
	npx --no-install lib-a && node -e "console.log(\"node \" + process.version)" &&
	ls "$npm_config_cache/_cacache" >/dev/null && echo cache-in-sandbox-root'
if [ $rc = 0 ] && grep -qx 'lib-a says lib-a' <<<"$out" && grep -q '^node v' <<<"$out" &&
	grep -qx cache-in-sandbox-root <<<"$out"; then
	pass "npm install (local tarball), npm ci, npx and node work; npm's cache is the launcher's"
else fail "npm (exit $rc): $(tail -c 800 <<<"$out")"; fi

# ---- bun ----
if [ -n "${BUNDIR:-}" ] && [ -x "$BUNDIR/bun" ]; then
	sbx -- 'set -e; mkdir -p bunapp && cd bunapp &&
		printf "{\"name\":\"bunapp\",\"dependencies\":{\"lib-a\":\"file:../lib-a/lib-a-1.0.0.tgz\"},\"scripts\":{\"start\":\"bun run main.js\"}}" >package.json &&
		printf "console.log(\"bun ran \" + require(\"lib-a/package.json\").name)\n" >main.js &&
		bun install --no-progress >/dev/null && bun run start'
	if [ $rc = 0 ] && grep -qx 'bun ran lib-a' <<<"$out"; then pass "bun install (local tarball) and bun run"
	else fail "bun (exit $rc): $(tail -c 800 <<<"$out")"; fi
else
	echo "SKIP: [$me] bun: the pinned npm package could not be installed (tests/lib/install-omp.sh)"
fi

# ---- python venv + pip ----
sbx -- 'set -e; mkdir -p py && cd py && mkdir -p dist &&
	/usr/bin/python3 - <<EOF
import zipfile, hashlib, base64
files = {"demo_pkg/__init__.py": "VALUE = 42\n",
	 "demo_pkg-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: demo-pkg\nVersion: 1.0\n",
	 "demo_pkg-1.0.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
rec = []
with zipfile.ZipFile("dist/demo_pkg-1.0-py3-none-any.whl", "w") as z:
    for n, t in files.items():
        z.writestr(n, t)
        h = base64.urlsafe_b64encode(hashlib.sha256(t.encode()).digest()).rstrip(b"=").decode()
        rec.append(f"{n},sha256={h},{len(t)}")
    rec.append("demo_pkg-1.0.dist-info/RECORD,,")
    z.writestr("demo_pkg-1.0.dist-info/RECORD", "\n".join(rec) + "\n")
EOF
	/usr/bin/python3 -m venv .venv &&
	.venv/bin/pip install -q --no-index --find-links dist demo-pkg &&
	.venv/bin/python -c "import demo_pkg; print(\"demo_pkg\", demo_pkg.VALUE)" &&
	.venv/bin/pip cache dir'
if [ $rc = 0 ] && grep -qx 'demo_pkg 42' <<<"$out" && grep -qx "$H/.cache/omp-sandbox/pip" <<<"$out" &&
	! grep -qi 'cache.*disabled' <<<"$out"; then
	pass "python3 -m venv + pip install of a locally built wheel; pip's cache is the launcher's"
else fail "python/pip (exit $rc): $(tail -c 800 <<<"$out")"; fi

# ---- a tool installed under the home ----
sbx -- 'mytool arg'
if [ $rc = 0 ] && grep -qx 'mytool-ran arg' <<<"$out"; then pass "a tool in ~/.local/bin runs"
else fail "~/.local/bin tool (exit $rc): $out"; fi

# ---- the secrets stay closed ----
sbx -- 'for f in ~/.ssh/id_rsa ~/.aws/credentials ~/.gnupg/private.key ~/.git-credentials \
	~/.config/git/credentials ~/.config/gh/hosts.yml ~/.docker/config.json ~/.kube/config \
	~/.netrc ~/.pypirc ~/.npmrc ~/.cargo/credentials.toml ~/.env; do cat "$f"; done;
	grep -rs CANARY- ~ 2>/dev/null; ls ~/.npm ~/.cache/pip; echo done'
if [ $rc = 0 ] || grep -q done <<<"$out"; then :; fi
canaries='CANARY-[A-Za-z_.-]*-[0-9][0-9]*'
if grep -q "$canaries" "$T/all-output"; then
	fail "a secret's canary appeared: $(grep -o "$canaries" "$T/all-output" | sort -u | tr '\n' ' ')"
else
	pass "no canary of the $(grep -rl CANARY "$H" | wc -l) secret files appeared in any output"
fi
# the check bites: a secret granted on purpose shows its canary
sbx OMP_SANDBOX_EXTRA_READ="$H/.ssh" OMP_SANDBOX_CONFIRM_SENSITIVE_READ=1 -- 'cat ~/.ssh/id_rsa'
if grep -q "$canaries" <<<"$out"; then pass "the canary check bites: ~/.ssh granted on purpose shows its canary"
else fail "granting ~/.ssh did not show its canary: $out"; fi
if grep -q 'npmrc.*not readable in the sandbox' "$T/all-output" &&
	grep -q 'OMP_SANDBOX_EXTRA_READ=.*\.npmrc' "$T/all-output"; then
	pass "the launch says ~/.npmrc is unreadable and names the variables that allow it"
else fail "no note about ~/.npmrc"; fi

# ---- the user's caches and configuration are untouched ----
snapshot >"$T/after"
if cmp -s "$T/before" "$T/after"; then
	pass "~/.gitconfig, ~/.config/git, ~/.npmrc, ~/.npm, ~/.cache/pip, rc files, ~/.local/bin byte-identical (sha256)"
else fail "the user's files changed: $(diff "$T/before" "$T/after" | head -10)"; fi
mode=$(stat -c '%a %U' "$H/.cache/omp-sandbox")
if [ "$mode" = "700 $me" ]; then pass "the cache root ~/.cache/omp-sandbox was created 0700, owned by the user"
else fail "cache root: $mode"; fi

# ---- OMP_SANDBOX_TOOLS ----
sbx OMP_SANDBOX_TOOLS=none -- 'cd repo && git status --short; echo "ident=$(git config user.email)"; mytool; echo "cache=${npm_config_cache:-unset}"'
# ~/.gitconfig is refused (complement: "unable to access") or hidden (masks:
# absent); either way git never sees the identity in it.
if { grep -q 'unable to access.*\.gitconfig' <<<"$out" || grep -qx 'ident=' <<<"$out"; } &&
	! grep -q "ident=.*@" <<<"$out" && ! grep -q mytool-ran <<<"$out" &&
	grep -qx 'cache=unset' <<<"$out"; then
	pass "OMP_SANDBOX_TOOLS=none: the original's strict policy (git cannot read ~/.gitconfig, no home tools, no cache settings)"
else fail "TOOLS=none: $out"; fi
sbx OMP_SANDBOX_TOOLS=git -- 'cd repo && git log -1 --format=%an; mytool; echo "cache=${npm_config_cache:-unset} xdg=${XDG_CACHE_HOME:-unset}"'
if grep -qx 'Ada Sandbox' <<<"$out" && ! grep -q mytool-ran <<<"$out" &&
	grep -qx "cache=unset xdg=$H/.cache/omp-sandbox" <<<"$out"; then
	pass "OMP_SANDBOX_TOOLS=git: git works, the local preset is off, the cache root stays on"
else fail "TOOLS=git: $out"; fi
sbx OMP_SANDBOX_TOOLS=git,nod -- 'true'
if grep -q "no preset named 'nod' (did you mean 'node'?)" <<<"$out"; then
	pass "an unknown preset name is a warning with the closest one"
else fail "TOOLS=git,nod: $out"; fi

# ---- warnings at launch ----
sbx OMP_SANDBOX_EXTRA_WRTIE=/tmp -- 'true'
if grep -q 'OMP_SANDBOX_EXTRA_WRTIE is not a setting.*did you mean OMP_SANDBOX_EXTRA_WRITE' <<<"$out"; then
	pass "a misspelled OMP_SANDBOX_* variable is a warning with the closest name"
else fail "typo warning: $out"; fi
sbx OMP_SANDBOX_EXTRA_WRITE="$H/.cargo/registry" -- 'true'
if grep -q "grant on $H/.cargo/registry (from OMP_SANDBOX_EXTRA_WRITE) does nothing" <<<"$out" &&
	grep -q "omp.sbx:[0-9:]*: warning" <<<"$out"; then
	pass "a grant on a missing path is a warning naming the rule and what to do"
else fail "missing-path warning: $out"; fi

# ---- shown by --print-profile ----
out=$(cd "$H/proj" && /usr/bin/env -i PATH="$PATHV" HOME="$H" "$OS" --print-profile 2>&1)
if grep -q "^;; environment: npm_config_cache=$H/.cache/omp-sandbox/npm$" <<<"$out" &&
	grep -q '^;; tool presets (OMP_SANDBOX_TOOLS=): .*git.*node' <<<"$out" &&
	grep -q "(subpath \"$H/.local/bin\")" <<<"$out"; then
	pass "--print-profile shows the presets, the cache environment and the bound grants"
else fail "--print-profile: $(head -20 <<<"$out")"; fi

# ---- cookbook recipes (docs/cookbook.md) ----
# "Use a private registry": ~/.npmrc on purpose
sbx -- 'npm config get registry'
r_default=$out
sbx OMP_SANDBOX_EXTRA_READ="$H/.npmrc" OMP_SANDBOX_CONFIRM_SENSITIVE_READ=1 -- 'npm config get registry'
if grep -qx 'https://registry.npmjs.org/' <<<"$r_default" && grep -qx 'http://registry.example.test/' <<<"$out"; then
	pass "cookbook: ~/.npmrc is ignored by default and applies with EXTRA_READ + CONFIRM_SENSITIVE_READ"
else fail "cookbook npmrc: default=$r_default; granted=$out"; fi
# "A directory of your own": created first, then granted
mkdir -p "$H/shared-cache"
sbx OMP_SANDBOX_EXTRA_WRITE="$H/shared-cache" OMP_SANDBOX_EXTRA_READ="$H/shared-cache" -- 'echo x >~/shared-cache/f && cat ~/shared-cache/f'
if [ $rc = 0 ] && grep -qx x <<<"$out" && ! grep -q grant-missing <<<"$out"; then
	pass "cookbook: an existing directory granted with EXTRA_WRITE + EXTRA_READ is writable and readable"
else fail "cookbook extra dir (exit $rc): $out"; fi
# "git: included configuration files"
mkdir -p "$H/.gitconfig.d"
printf '[alias]\n\tst = status --short\n' >"$H/.gitconfig.d/aliases"
cp "$H/.gitconfig" "$T/gitconfig.orig"
printf '[include]\n\tpath = ~/.gitconfig.d/aliases\n' >>"$H/.gitconfig"
# the git preset follows the include at launch (issue 30): no variable needed
sbx -- 'cd repo && git st && echo st-ok'
if [ $rc = 0 ] && grep -qx st-ok <<<"$out"; then
	pass "cookbook: a file included from ~/.gitconfig is followed with no variable"
else fail "cookbook git include (exit $rc): $out"; fi
cp "$T/gitconfig.orig" "$H/.gitconfig"
# "Protect .git/hooks": the example policy under sbrun
SBRUN=$B/bin/sbrun
if "$B/bin/sbc" -o "$T/protect.sb" "$root/examples/omp-protect-git.sbx" 2>"$T/sbc.err"; then
	out=$(cd "$H/proj/repo" && /usr/bin/env -i PATH="$PATHV" HOME="$H" LANG=C.UTF-8 "$SBRUN" "$T/protect.sb" \
		/bin/sh -c 'echo evil >.git/hooks/pre-commit; echo three >>a.txt && git commit -qam third && git log -1 --format=%s' 2>&1)
	if grep -qx third <<<"$out" && [ ! -e "$H/proj/repo/.git/hooks/pre-commit" ]; then
		pass "cookbook: omp-protect-git.sbx keeps .git/hooks read-only while git commit works"
	else fail "cookbook protect-git: $out"; fi
else fail "cookbook protect-git: sbc: $(cat "$T/sbc.err")"; fi
# "A preset of your own"
mkdir -p "$H/.mytool"
echo mytool-data >"$H/.mytool/data"
printf 'include "%s/examples/omp.sbx";\ninclude "mine/mytool.sbx";\n' "$root" >"$T/mine.sbx"
mkdir -p "$T/mine"
printf 'preset "mytool";\nallow read ~/.mytool;\n' >"$T/mine/mytool.sbx"
if "$B/bin/sbc" --check "$T/mine.sbx" 2>"$T/sbc.err" && "$B/bin/sbc" -o "$T/mine.sb" "$T/mine.sbx" 2>>"$T/sbc.err"; then
	on=$(cd "$H/proj" && /usr/bin/env -i PATH="$PATHV" HOME="$H" "$SBRUN" "$T/mine.sb" /bin/cat "$H/.mytool/data" 2>&1)
	off=$(cd "$H/proj" && /usr/bin/env -i PATH="$PATHV" HOME="$H" OMP_SANDBOX_TOOLS=git "$SBRUN" "$T/mine.sb" /bin/cat "$H/.mytool/data" 2>&1)
	if grep -qx mytool-data <<<"$on" && ! grep -q mytool-data <<<"$off"; then
		pass "cookbook: a preset of your own is on by default and off when OMP_SANDBOX_TOOLS leaves it out"
	else fail "cookbook own preset: on=$on off=$off"; fi
else fail "cookbook own preset: $(cat "$T/sbc.err")"; fi

# ---- sbc explain / diff answer for this machine ----
SBC=$B/bin/sbc
ex() { (cd "$H/proj" && /usr/bin/env -i PATH=/usr/bin:/bin HOME="$H" "$@" 2>&1); }
out=$(ex "$SBC" explain "$root/examples/omp.sbx" --op read --path '~/.ssh/id_rsa')
r1=$?
out2=$(ex "$SBC" explain "$root/examples/omp.sbx" --op read --path '~/.gitconfig')
r2=$?
out3=$(ex OMP_SANDBOX_TOOLS=none "$SBC" explain "$root/examples/omp.sbx" --op read --path '~/.gitconfig')
r3=$?
if [ $r1 = 1 ] && grep -q "^deny: file-read-data $H/.ssh/id_rsa$" <<<"$out" &&
	grep -q "HOME=$H WORKSPACE=$H/proj " <<<"$out" && grep -q '^bindings: this machine' <<<"$out" &&
	[ $r2 = 0 ] && grep -q 'policy: tools/git.sbx:' <<<"$out2" && [ $r3 = 1 ] && grep -q 'TOOL_GIT=off' <<<"$out3"; then
	pass "sbc explain binds this machine's values as the launcher would (home, workspace, OMP_SANDBOX_TOOLS)"
else fail "sbc explain on this machine: $r1 $out / $r2 $out2 / $r3 $out3"; fi
out=$(ex "$SBC" explain "$root/examples/omp.sbx" --op read --path '~/.ssh/id_rsa' --sample)
if grep -q '^deny: file-read-data /Users/me/.ssh/id_rsa$' <<<"$out" && grep -q '^bindings: the documented samples' <<<"$out"; then
	pass "sbc explain --sample binds the documented sample values and says so"
else fail "explain --sample: $out"; fi
printf 'include "%s/examples/omp.sbx";\nallow read ~/.ssh acknowledge sensitive "test";\n' "$root" >"$T/wider.sbx"
out=$(ex "$SBC" diff "$root/examples/omp.sbx" "$T/wider.sbx")
r=$?
if [ $r = 2 ] && grep -q "$H/.ssh" <<<"$out" && grep -q 'bindings: this machine' <<<"$out"; then
	pass "sbc diff names this machine's paths (~/.ssh widening: exit 2)"
else fail "sbc diff on this machine (exit $r): $(head -c 600 <<<"$out")"; fi

# ---- POSIX shared memory: the sandbox's private /dev/shm (docs/linux.md) ----
marker=/dev/shm/sbx-outside-$$-$RANDOM
echo outside >"$marker"
run_plain() { # ARGS...: the documented plain-command form (docs/omp-sandboxed.md)
	out=$(cd "$H/proj" && /usr/bin/env -i PATH="$PATHV" HOME="$H" USER="$me" LANG=C.UTF-8 \
		TERM=dumb "$@" 2>&1)
	rc=$?
}
run_plain "$OS" --sandbox-run /usr/bin/python3 -c "
import multiprocessing, os
from multiprocessing import shared_memory
print('pool', multiprocessing.Pool(2).map(abs, [-1, -2]))
m = shared_memory.SharedMemory(create=True, size=16, name='sbx-inside-$$')
print('shm', os.path.exists('/dev/shm/sbx-inside-$$'), os.path.exists('$marker'))
m.close(); m.unlink()
open('/dev/shm/sbx-left-$$', 'w').write('x')
"
if [ $rc = 0 ] && grep -qx 'pool \[1, 2\]' <<<"$out" && grep -qx 'shm True False' <<<"$out" &&
	[ ! -e /dev/shm/sbx-left-$$ ] && [ "$(cat "$marker")" = outside ]; then
	pass "multiprocessing.Pool and shm_open work in a private /dev/shm: nothing from outside seen, nothing left outside"
else fail "private /dev/shm (exit $rc): $(tail -c 600 <<<"$out")"; fi
rm -f "$marker" /dev/shm/sbx-left-$$

# ---- the real registries, where this machine reaches them (else SKIP) ----
# The workloads above use local sources only; these fetch for real, with
# the network open (the default) and through the allowlist's egress proxy
# (OMP_SANDBOX_NETWORK=allowlist, examples/omp-allowlist.sbx).  The probe
# runs outside the sandbox.
nskip=${nskip:-0}
skip() { echo "SKIP: [$me] $*"; nskip=$((nskip + 1)); }
reach() { /usr/bin/curl -s -o /dev/null -m 10 -w '%{http_code}' "$1" 2>/dev/null | grep -q '^[23]'; }
if [ ! -x /usr/bin/curl ]; then
	skip "real registries: /usr/bin/curl missing, reachability unknown"
elif ! reach https://registry.npmjs.org/is-number; then
	skip "npm from registry.npmjs.org: not reachable from this machine"
else
	for mode in open allowlist; do
		d=$H/proj/real-$mode
		mkdir -p "$d"
		run_plain OMP_SANDBOX_NETWORK=$mode OMP_SANDBOX_WORKSPACE="$d" "$OS" --sandbox-run /bin/sh -c "
			cd '$d' && npm init -y >/dev/null &&
			npm install --no-audit --no-fund --loglevel=error is-even@1.0.0 &&
			node -e 'console.log(\"is-even(4)=\" + require(\"is-even\")(4))' &&
			ls node_modules | sort | tr '\n' ' '"
		if [ $rc = 0 ] && grep -qx 'is-even(4)=true' <<<"$out" && grep -q 'is-number' <<<"$out"; then
			pass "npm install from registry.npmjs.org (a tree of $(ls "$d/node_modules" | wc -l) packages), network $mode"
		else fail "npm from the registry, network $mode (exit $rc): $(tail -c 800 <<<"$out")"; fi
	done
fi
gyp=$(ls -d /usr/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js /usr/share/nodejs/node-gyp/bin/node-gyp.js 2>/dev/null | head -n 1)
if [ -z "$gyp" ]; then
	skip "node-gyp headers: node-gyp is not installed"
elif ! reach https://nodejs.org/dist/index.json; then
	skip "node-gyp headers from nodejs.org: not reachable from this machine (allowed by omp-allowlist.sbx)"
else
	run_plain OMP_SANDBOX_NETWORK=allowlist "$OS" --sandbox-run /bin/sh -c \
		"node '$gyp' install --devdir='$H/proj/gyp' >/dev/null && ls '$H/proj/gyp'/*/include/node/node.h"
	ok_if "node-gyp fetches the node headers from nodejs.org through the allowlist"
fi
if ! reach https://pypi.org/simple/; then
	skip "pip from pypi.org: not reachable from this machine (allowed by omp-allowlist.sbx)"
else
	run_plain OMP_SANDBOX_NETWORK=allowlist "$OS" --sandbox-run /bin/sh -c \
		"cd '$H/proj' && python3 -m venv pypi-venv && pypi-venv/bin/pip install -q six &&
		 pypi-venv/bin/python -c 'import six; print(\"six\", six.__version__)'"
	ok_if "pip installs from pypi.org through the allowlist"
fi

echo "workloads [$me]: $npass passed, $nfail failed, $nskip skipped"
[ $nfail = 0 ]
