#!/usr/bin/env bash
# demo-self-test.sh [BUILD_DIR]: what `make run` shows.  Installs the real omp
# (tests/lib/install-omp.sh) when it is not on PATH, then runs
# `omp-sandboxed --self-test` in a private mount namespace with a throwaway
# home (tests/lib/fakehome.sh), from a project directory inside that home.
# The real home is never touched.  Exit: the self-test's status (0 = every
# check passed or skipped), 77 when no private namespace can be made.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
B=${1:-build}
case $B in /*) ;; *) B=$root/$B ;; esac
os=$B/bin/omp-sandboxed
[ -x "$os" ] || { echo "demo: $os is not built (run make)" >&2; exit 1; }
if ompdir=$("$root/tests/lib/install-omp.sh" --prefer-path); then
	export PATH="$ompdir:$PATH"
else
	echo "demo: the real omp is unavailable; its checks will report SKIP or FAIL" >&2
fi
echo "demo: omp-sandboxed --self-test with a throwaway home (/home/tester in a private mount namespace)"
exec "$root/tests/lib/fakehome.sh" -- /bin/bash -c '
	mkdir -p "$HOME/project" && cd "$HOME/project" || exit 1
	echo "demo: HOME=$HOME, workspace $PWD, omp: $(command -v omp || echo none)"
	exec "$1" --self-test' demo "$os"
