#!/usr/bin/env bash
# Golden diagnostics of the check passes, through the real front end:
# for each tests/golden/check/NAME.sbx with a NAME.expected, run
#   sbc --check [ARGS] tests/golden/check/NAME.sbx
# (ARGS from a "# sbc-args: ..." line in the policy) and compare its output
# (stdout and stderr) plus a closing "exit N" line with NAME.expected.
# Then every example policy must check without errors.
# UPDATE=1 rewrites the .expected files (review the diff before committing).
set -uo pipefail
B=${B:-build}
cd "$(dirname "$0")/.."
sbc=$B/bin/sbc
if [ ! -x "$sbc" ]; then
	echo "SKIP: $sbc is not built"
	exit 77
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0

for policy in tests/golden/check/*.sbx; do
	expected=${policy%.sbx}.expected
	[ -e "$expected" ] || [ "${UPDATE:-}" = 1 ] || { echo "FAIL: $policy has no .expected"; fail=1; continue; }
	args=$(sed -n 's/^# sbc-args: //p' "$policy" | head -n 1)
	# shellcheck disable=SC2086 # ARGS are words on purpose
	# A machine-readable report is the golden (stdout); the human text
	# beside it goes to stderr and is checked by the text goldens.
	case " $args " in
	*" --format"*) { NO_COLOR=1 "$sbc" --check $args "$policy" 2>"$tmp/err"; echo "exit $?"; } >"$tmp/got" ;;
	*) { NO_COLOR=1 "$sbc" --check $args "$policy" 2>&1; echo "exit $?"; } >"$tmp/got" ;;
	esac
	if [ "${UPDATE:-}" = 1 ]; then
		cp "$tmp/got" "$expected"
		echo "PASS: $policy (updated)"
	elif cmp -s "$tmp/got" "$expected"; then
		echo "PASS: $policy"
	else
		echo "FAIL: $policy"
		diff -u "$expected" "$tmp/got" | head -n 40
		fail=1
	fi
done

# the tool presets (examples/tools/) and the protection groups
# (examples/protect/) are fragments: checked through omp.sbx
for policy in examples/*.sbx examples/*/*.sbx; do
	[ -e "$policy" ] || continue
	case $policy in examples/tools/* | examples/protect/*) continue ;; esac
	if NO_COLOR=1 "$sbc" --check "$policy" >"$tmp/out" 2>&1; then
		echo "PASS: $policy checks without errors"
	else
		echo "FAIL: $policy does not pass sbc --check"
		head -n 20 "$tmp/out"
		fail=1
	fi
done
exit "$fail"
