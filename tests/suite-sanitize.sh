#!/usr/bin/env bash
# The whole test suite again under AddressSanitizer + UndefinedBehavior-
# Sanitizer: `make test-sanitize` minus the dependency installation, i.e. a
# build in build-san/ with SAN=1 and every suite run against it.  This is
# how CI runs the sanitizer build: `make test` runs every tests/suite-*.sh,
# this one included.  Skipped inside that nested run (no recursion) and when
# SBX_SKIP_SANITIZE=1.
set -uo pipefail
cd "$(dirname "$0")/.."
if [ -n "${SBX_IN_SANITIZE:-}" ] || [ "${B:-build}" = build-san ]; then
	echo "SKIP: already the sanitizer run"
	exit 77
fi
if [ "${SBX_SKIP_SANITIZE:-}" = 1 ]; then
	echo "SKIP: SBX_SKIP_SANITIZE=1"
	exit 77
fi
# Probe into a private file: `cc -o /dev/null` run as root makes the linker
# unlink /dev/null and leave a regular file in its place.
probe_dir=$(mktemp -d)
if ! echo 'int main(void){return 0;}' | ${CC:-cc} -fsanitize=address,undefined -x c -o "$probe_dir/a.out" - 2>/dev/null; then
	rm -rf "$probe_dir"
	echo "SKIP: the compiler cannot build with -fsanitize=address,undefined"
	exit 77
fi
rm -rf "$probe_dir"
export SBX_IN_SANITIZE=1
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# A clean nested make: no jobserver or command-line variables from an outer one.
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u B \
	make --no-print-directory -j2 B=build-san SAN=1 OPT="-O1 -g" check
rc=$?
if [ "$rc" -eq 0 ]; then
	echo "PASS: the full suite passes under ASan+UBSan (build-san/)"
else
	echo "FAIL: the full suite under ASan+UBSan (exit $rc)"
fi
exit "$rc"
