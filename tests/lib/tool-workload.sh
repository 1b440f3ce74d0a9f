#!/usr/bin/env bash
# tool-workload.sh - real tools doing real work under the default policy:
# git (init, commit, gc, clone, mv across directories), npm (pack, install
# offline from the tarball, cache in the workspace) and pip (venv, install a
# local package without an index).  Run inside tests/lib/fakehome.sh (a
# throwaway $HOME); the launcher is $TSBRUN (default build/bin/sbrun) with
# $PROFILE (default build/gen/omp.sb); SB_TEST_LL_ABI passes through for a
# test build.  Prints "WORKLOAD-OK NAME", "WORKLOAD-FAIL NAME",
# "WORKLOAD-SKIP TOOL: reason" for a missing tool, or, for the documented
# Landlock ABI 1 breakages (git mv across directories; npm 9's cache),
# "WORKLOAD-EXDEV NAME"; and "WORKLOAD-NPM-VERSION V".  No network.
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
# npm 9's cache hard-links into place with no fallback: EXDEV at ABI 1
npm_ok() { if [ "$2" != 0 ] && grep -q 'EXDEV' <<<"$3"; then echo "WORKLOAD-EXDEV $1"; else ok "$1" "$2"; fi; }
out=$(cd pkg && npm pack -q 2>&1 >/dev/null); npm_ok npm-pack $? "$out"
mkdir app && printf '{"name":"app","version":"1.0.0"}' >app/package.json
[ -f pkg/p-1.0.0.tgz ] || (cd pkg && tar czf p-1.0.0.tgz --transform 's,^,package/,' package.json)
out=$(cd app && npm install --offline --no-audit --no-fund ../pkg/p-1.0.0.tgz 2>&1 >/dev/null && [ -f node_modules/p/package.json ]); npm_ok npm-install $? "$out"
command -v npm >/dev/null && echo "WORKLOAD-NPM-VERSION $(npm --version 2>/dev/null)"
mkdir -p pyp/m && printf 'from setuptools import setup\nsetup(name="m", version="1", packages=["m"])\n' >pyp/setup.py && : >pyp/m/__init__.py
python3 -m venv venv >/dev/null 2>&1 && ./venv/bin/pip install -q --no-index --no-build-isolation --no-cache-dir ./pyp >/dev/null 2>&1; ok pip-install $?
./venv/bin/python -c 'import m' 2>/dev/null; ok pip-import $?
EOS
env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$HOME" TERM=dumb LANG=C ${SB_TEST_LL_ABI:+SB_TEST_LL_ABI=$SB_TEST_LL_ABI} \
	"$TSBRUN" "$PROFILE" -- /bin/bash --noprofile --norc work.sh 2>&1
