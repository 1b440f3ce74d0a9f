#!/bin/sh
# make-deb.sh BUILD_DIR: build the Debian package with Debian's own tools
# (dpkg-buildpackage, debhelper; debian/) from a copy of the tracked files,
# so the build's `make clean` never touches the working tree, then run
# lintian at its default level.  The .deb lands in BUILD_DIR/deb/.
# Needs: dpkg-dev, debhelper, lintian (scripts/deps.sh installs them).
set -eu
out=$1
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
src=$(cd "$(dirname "$0")/.." && pwd)
work=$out/deb
rm -rf "$work"
mkdir -p "$work/omp-sandbox"
# the tracked files only: no build output, no untracked test caches
(cd "$src" && git ls-files -z | xargs -0 tar -cf - --no-recursion) | tar -xf - -C "$work/omp-sandbox"
(cd "$work/omp-sandbox" && dpkg-buildpackage -b -us -uc > "$work/build.log" 2>&1) ||
	{ tail -40 "$work/build.log"; echo "make-deb: dpkg-buildpackage failed (log: $work/build.log)" >&2; exit 1; }
deb=$(ls "$work"/omp-sandbox_*.deb)
echo "make-deb: built $deb"
# lintian at its default level (errors and warnings) fails the build
if ! lintian --fail-on error,warning "$work"/omp-sandbox_*.changes; then
	echo "make-deb: lintian reports problems" >&2
	exit 1
fi
echo "make-deb: lintian clean"
