#!/usr/bin/env bash
# Valgrind over sbc: every golden policy and every example is compiled,
# checked, explained and diffed, the emitted profiles are read back, and the
# malformed corpus is refused, each under
# `valgrind --leak-check=full --error-exitcode=1`: no invalid access, no
# uninitialised read, no definite/indirect/possible leak, on success and on
# error paths alike.
set -uo pipefail
cd "$(dirname "$0")/.."
B=${B:-build}
SBC=$PWD/$B/bin/sbc
command -v valgrind >/dev/null || { echo "SKIP: valgrind not installed"; exit 77; }
[ -x "$SBC" ] || { echo "SKIP: $SBC not built"; exit 77; }
if grep -q __asan_init "$SBC" 2>/dev/null; then
	echo "SKIP: $SBC is a sanitizer build (valgrind cannot run it)"
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0 n=0
VG=(valgrind -q --leak-check=full --show-leak-kinds=definite,indirect,possible
    --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99)

# vg NAME CMD...: run CMD under valgrind; the command's own status may be
# anything but 99 (valgrind's) or a signal.
vg() {
	local name=$1; shift
	n=$((n + 1))
	(cd "$dir" && timeout 120 "${VG[@]}" "$@") >"$tmp/out" 2>&1
	local rc=$?
	if [ "$rc" -eq 99 ] || [ "$rc" -ge 124 ] || grep -q '^==[0-9]*== ' "$tmp/out"; then
		echo "FAIL: $name (exit $rc)"
		grep '^==' "$tmp/out" | head -30 | sed 's/^/    | /'
		fail=$((fail + 1))
	else
		pass=$((pass + 1))
	fi
}

mapfile -t policies < <(ls examples/*.sbx tests/golden/*.sbx tests/golden/*/*.sbx 2>/dev/null | sort -u)
if [ "${#policies[@]}" -eq 0 ]; then
	echo "SKIP: no golden tests or examples yet"
	exit 77
fi
for f in "${policies[@]}"; do
	dir=$(dirname "$f"); b=$(basename "$f")
	vg "sbc --check $f" "$SBC" --check "$b"
	vg "sbc $f -o" "$SBC" "$b" -o "$tmp/$b.sb"
	if [ -s "$tmp/$b.sb" ]; then
		vg "sbc explain $f.sb" "$SBC" explain "$tmp/$b.sb" --op read --path /etc/passwd
		vg "sbc explain --format=json $f" "$SBC" explain "$b" --op write --path /private/tmp/x -D HOME=/Users/u --format=json
	fi
done
dir=$PWD
ex=(examples/*.sbx)
if [ "${#ex[@]}" -ge 2 ] && [ -e "${ex[0]}" ]; then
	vg "sbc diff ${ex[0]} ${ex[1]}" "$SBC" diff "${ex[0]}" "${ex[1]}"
fi
# The error paths: every malformed profile, every third malformed policy
# (they share most code paths; CI time matters under valgrind).
i=0
for f in tests/malformed/*.sbx tests/malformed/*.sb; do
	[ -e "$f" ] || continue
	i=$((i + 1))
	case $f in *.sbx) [ $((i % 3)) -eq 0 ] || continue ;; esac
	dir=tests/malformed; b=$(basename "$f")
	case $b in
	*.sbx) vg "sbc --check $f" "$SBC" --check "$b" ;;
	*.sb) vg "sbc explain $f" "$SBC" explain "$b" --op read --path /x ;;
	esac
done
echo "valgrind: $n runs, $pass clean, $fail with errors or leaks"
if [ "$fail" -eq 0 ]; then echo "PASS: valgrind finds no error or leak in sbc"; fi
[ "$fail" -eq 0 ]
