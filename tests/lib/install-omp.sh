#!/usr/bin/env bash
# install-omp.sh [--prefer-path]: print the directory holding a usable `omp`
# (and its `bun`): the pinned Oh My Pi package and the Bun runtime, installed
# into tests/.omp-dist (git-ignored) with npm once, i.e.
# tests/.omp-dist/node_modules/.bin.  The suites use this one and never an omp
# or bun found on PATH: a user's global omp is another version, or a stand-in
# (tests/lib/hostile-host.sh), and a test asserts on what it installed.
# --prefer-path: an omp already on PATH wins (`make run` shows the user's omp).
# Pinned to 18.2.3: the registry's 18.3.4 and 18.2.9 fail to install (a
# dependency at the same version is missing there).
# Exit: 0 and the directory on stdout; 77 when npm is missing or the install
# fails (callers SKIP with the reason printed on stderr).
set -uo pipefail
OMP_VERSION=18.2.3
BUN_VERSION=1.4.5   # the Bun omp 18.2.3 was studied with (omp needs >= 1.3.14)
root=$(cd "$(dirname "$0")/../.." && pwd)
dist="$root/tests/.omp-dist"
bin="$dist/node_modules/.bin"

if [ "${1:-}" = --prefer-path ] && p=$(command -v omp 2>/dev/null) && [ -n "$p" ]; then
	dirname "$p"
	exit 0
fi
if [ -x "$bin/omp" ] && [ -x "$bin/bun" ]; then
	echo "$bin"
	exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
	echo "install-omp: npm not found; cannot install omp $OMP_VERSION" >&2
	exit 77
fi
mkdir -p "$dist"
echo "install-omp: installing @oh-my-pi/pi-coding-agent@$OMP_VERSION and bun@$BUN_VERSION into $dist (about 40 s)" >&2
# The npm cache goes into the git-ignored folder too: never into the home.
if ! npm install --prefix "$dist" --cache "$dist/.npm-cache" --no-audit --no-fund \
	--no-update-notifier --loglevel=error "bun@$BUN_VERSION" "@oh-my-pi/pi-coding-agent@$OMP_VERSION" >&2; then
	echo "install-omp: npm install failed" >&2
	exit 77
fi
if [ -x "$bin/omp" ] && [ -x "$bin/bun" ]; then
	echo "$bin"
	exit 0
fi
echo "install-omp: the install did not produce $bin/omp and $bin/bun" >&2
exit 77
