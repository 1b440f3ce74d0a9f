#!/usr/bin/env bash
# Malformed-input corpus: every tests/malformed/*.sbx is refused by
# `sbc --check` and by a compile (which must leave no output file), every
# tests/malformed/*.sb is refused by `sbc explain`; each with a clean exit
# (non-zero, not a signal, no sanitizer report, no hang) and stderr holding
# every line of the sibling .err file (fixed strings).
set -uo pipefail
cd "$(dirname "$0")/.."
B=${B:-build}
ROOT=$PWD
SBC=${SBC:-$ROOT/$B/bin/sbc}
if [ ! -x "$SBC" ]; then
	echo "SKIP: $SBC not built"
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

# run_case NAME CMD...: runs CMD in tests/malformed with a 20 s limit;
# sets $out (stderr+stdout) and $rc.
run_case() {
	(cd tests/malformed && timeout 20 "$@") >"$tmp/out" 2>&1
	rc=$?
	out=$(cat "$tmp/out")
}

# Inputs the reader is known to accept (tests/malformed/KNOWN-LENIENT).
declare -A LENIENT
while read -r n why; do
	case $n in ''|'#'*) continue ;; esac
	LENIENT[$n]=$why
done <tests/malformed/KNOWN-LENIENT

# bad_exit RC: why an exit status is not a clean refusal ("" when it is).
bad_exit() {
	local rc=$1
	if [ "$rc" -eq 0 ] && [ -n "${LENIENT[$name]:-}" ]; then :;
	elif [ "$rc" -eq 0 ]; then echo "accepted (exit 0)";
	elif [ "$rc" -eq 124 ]; then echo "hang (killed after 20 s)";
	elif [ "$rc" -ge 126 ]; then echo "crash (exit $rc)";
	elif grep -qE 'AddressSanitizer|LeakSanitizer|runtime error:|UndefinedBehaviorSanitizer' "$tmp/out"; then
		echo "sanitizer report"
	fi
}

check_expected() {
	local errf=$1 missing=""
	while IFS= read -r want || [ -n "$want" ]; do
		[ -z "$want" ] && continue
		grep -qF -- "$want" "$tmp/out" || missing+="'$want' "
	done <"$errf"
	echo "$missing"
}

have_explain=1
probe_out=$("$SBC" explain /dev/null --op read --path /x 2>&1)
if [[ $probe_out == *"not in this build"* ]]; then
	have_explain=0
	echo "SKIP: profiles (.sb): 'sbc explain' is not in this build"
fi
for f in tests/malformed/*.sbx tests/malformed/*.sb; do
	[ -e "$f" ] || continue
	name=$(basename "$f")
	errf=${f%.*}.err
	if [ ! -f "$errf" ]; then
		echo "FAIL: $name: no expected diagnostic file $(basename "$errf")"
		fail=$((fail + 1)); continue
	fi
	why=""
	case $name in
	*.sbx)
		run_case "$SBC" --check "$name"
		why=$(bad_exit "$rc")
		[ -z "$why" ] && { m=$(check_expected "$errf"); [ -n "$m" ] && why="missing in diagnostics: $m"; }
		if [ -z "$why" ]; then
			rm -f "$tmp/out.sb"
			(cd tests/malformed && timeout 20 "$SBC" "$name" -o "$tmp/out.sb") >"$tmp/out" 2>&1
			rc=$?
			why=$(bad_exit "$rc")
			[ -z "$why" ] && [ -e "$tmp/out.sb" ] && why="failed compile left an output file"
			[ -n "$why" ] && why="compile: $why"
		fi ;;
	*.sb)
		[ "$have_explain" -eq 1 ] || continue
		run_case "$SBC" explain "$name" --op read --path /private/tmp/x
		why=$(bad_exit "$rc")
		[ -z "$why" ] && { m=$(check_expected "$errf"); [ -n "$m" ] && why="missing in diagnostics: $m"; } ;;
	esac
	if [ -z "$why" ] && [ -n "${LENIENT[$name]:-}" ]; then
		if [ "$rc" -eq 0 ]; then
			echo "PASS: $name (accepted, known: ${LENIENT[$name]})"
		else
			echo "PASS: $name (now refused: remove it from KNOWN-LENIENT and give it an error .err)"
		fi
		pass=$((pass + 1))
	elif [ -z "$why" ]; then
		echo "PASS: $name"
		pass=$((pass + 1))
	else
		echo "FAIL: $name: $why"
		sed -n '1,6s/^/    | /p' "$tmp/out" | cut -c1-200
		fail=$((fail + 1))
	fi
done
echo "malformed: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
