#!/usr/bin/env bash
# tool-workload.sh - real tools doing real work under the default policy:
# git (init, commit, gc, clone, mv across directories), npm (pack, install
# offline from the tarball, cache in the workspace) and pip (venv, install a
# local package without an index).  Run inside tests/lib/fakehome.sh (a
# throwaway $HOME); the launcher is $TSBRUN (default build/bin/sbrun) with
# $PROFILE (default build/gen/omp.sb); SB_TEST_LL_ABI passes through for a
# test build.  Prints "WORKLOAD-OK NAME", "WORKLOAD-FAIL NAME",
# "WORKLOAD-SKIP TOOL: reason" for a missing tool, or, for git mv
# across directories at Landlock ABI 1, "WORKLOAD-EXDEV git-mv".  No network.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
TSBRUN=${TSBRUN:-$root/build/bin/sbrun}
PROFILE=${PROFILE:-$root/build/gen/omp.sb}
mkdir -p "$HOME/proj" && cd "$HOME/proj" || exit 1
cat >work.sh <<'EOS'
ok() { if [ "$2" = 0 ]; then echo "WORKLOAD-OK $1"; else echo "WORKLOAD-FAIL $1 (exit $2)"; fi; }
for t in git npm python3; do
	command -v $t >/dev/null || echo "WORKLOAD-SKIP $t: not installed"
done
export npm_config_cache=$PWD/.npm-cache npm_config_update_notifier=false
git init -q repo && cd repo && git config user.email t@example.org && git config user.name t
mkdir a b && echo hi >a/f && git add a && git commit -qm one; ok git-commit $?
git gc -q; ok git-gc $?
out=$(git mv a/f b/f 2>&1); rc=$?
if [ $rc != 0 ] && grep -q 'cross-device' <<<"$out"; then echo "WORKLOAD-EXDEV git-mv"; else ok git-mv $rc; fi
cd .. && git clone -q repo clone; ok git-clone $?
mkdir pkg && printf '{"name":"p","version":"1.0.0"}' >pkg/package.json
(cd pkg && npm pack -q >/dev/null 2>&1); ok npm-pack $?
mkdir app && printf '{"name":"app","version":"1.0.0"}' >app/package.json
(cd app && npm install --offline --no-audit --no-fund ../pkg/p-1.0.0.tgz >/dev/null 2>&1 && [ -f node_modules/p/package.json ]); ok npm-install $?
mkdir -p pyp/m && printf 'from setuptools import setup\nsetup(name="m", version="1", packages=["m"])\n' >pyp/setup.py && : >pyp/m/__init__.py
python3 -m venv venv >/dev/null 2>&1 && ./venv/bin/pip install -q --no-index --no-build-isolation --no-cache-dir ./pyp >/dev/null 2>&1; ok pip-install $?
./venv/bin/python -c 'import m' 2>/dev/null; ok pip-import $?
EOS
env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$HOME" TERM=dumb LANG=C ${SB_TEST_LL_ABI:+SB_TEST_LL_ABI=$SB_TEST_LL_ABI} \
	"$TSBRUN" "$PROFILE" -- /bin/bash --noprofile --norc work.sh 2>&1
