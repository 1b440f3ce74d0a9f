#!/usr/bin/env bash
# The Homebrew (macOS) build cannot be tried here; this keeps its premise
# true: with __linux__ undefined, the Linux-only files compile to nothing,
# runtime/linux/linux_other.c supplies refusing entry points, every program links,
# the portable unit tests pass, and sbrun reports Landlock as unavailable
# instead of running anything.  Unverified on macOS itself.
set -uo pipefail
cd "$(dirname "$0")/.."
B=${B:-build}
if [ "$B" = build-san ]; then
	echo "SKIP: the portable build is checked once, in the normal run"
	exit 77
fi
out=$(mktemp -d /tmp/sbx-portable.XXXXXX)
trap 'rm -rf "$out"' EXIT
fail=0
if env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL CPPFLAGS=-U__linux__ \
	make --no-print-directory -j2 B="$out" "$out/bin/sbc" "$out/bin/sbrun" \
	"$out/bin/omp-sandboxed" "$out/tests/unit" >"$out.log" 2>&1; then
	echo "PASS: everything builds and links without __linux__"
else
	echo "FAIL: the build without __linux__ failed:"; tail -20 "$out.log"; rm -f "$out.log"; exit 1
fi
rm -f "$out.log"
if "$out/tests/unit" --jobs=2 >"$out/unit.log" 2>&1; then
	echo "PASS: the portable unit tests pass ($(grep -o 'Tested: [0-9]*' "$out/unit.log"))"
else
	echo "FAIL: portable unit tests"; tail -20 "$out/unit.log"; fail=1
fi
doc=$("$out/bin/sbrun" --doctor 2>&1); rc=$?
if [ $rc = 78 ] && grep -q "Linux only" <<<"$doc"; then
	echo "PASS: sbrun --doctor says Landlock is unavailable (exit 78)"
else
	echo "FAIL: sbrun --doctor without Linux: rc=$rc $doc"; fail=1
fi
exit $fail
