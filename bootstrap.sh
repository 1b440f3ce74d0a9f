#!/bin/sh
# bootstrap.sh run|test|TARGET...: the README's two commands on a bare
# Debian 12 or 13 (as root, nothing installed first): install what the build
# and the suites need with apt-get (scripts/deps.sh: make, the compiler,
# flex, bison, npm, ...), then run `make TARGET`.
#   ./bootstrap.sh run    build, then omp-sandboxed --self-test with the real omp
#   ./bootstrap.sh test   build, then every test suite
# POSIX sh: a bare system has no bash guarantee and no make yet.
set -eu
cd "$(dirname "$0")"
if [ $# -eq 0 ]; then
	echo "usage: ./bootstrap.sh run|test|MAKE-TARGET..." >&2
	exit 2
fi
scripts/deps.sh
exec make "$@"
