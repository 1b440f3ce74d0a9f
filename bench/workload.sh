#!/bin/sh
# workload.sh - the file-heavy jobs timed under sbrun and bare by run.sh.
#   workload.sh hash DIR            read and SHA-256 every regular file under DIR
#   workload.sh make SRC BUILDDIR   build this project from SRC into BUILDDIR
#                                   (BUILDDIR is removed first: a full build)
# Tools are called by absolute path so both runs do the same work.
set -eu
case ${1:-} in
hash)
	dir=${2:?usage: workload.sh hash DIR}
	/usr/bin/find "$dir" -type f -print0 | /usr/bin/xargs -0 -r /usr/bin/sha256sum > /dev/null
	;;
make)
	src=${2:?usage: workload.sh make SRC BUILDDIR}
	out=${3:?usage: workload.sh make SRC BUILDDIR}
	/bin/rm -rf "$out"
	/usr/bin/make -s -j2 -C "$src" B="$out" all > /dev/null
	;;
*)
	echo "usage: workload.sh hash DIR | make SRC BUILDDIR" >&2
	exit 2
	;;
esac
