#!/usr/bin/env bash
# Run every suite: the Criterion unit binary, then each tests/suite-*.sh.
# Each suite prints its own results; this prints the plain closing line
# "N passed, N failed, N skipped" over the suites.
# SBX_SUITES="NAME ...": only these (suite-NAME.sh; "unit" for the unit
# binary), e.g. the hostile pass of `make test` (Makefile HOSTILE_SUITES).
set -uo pipefail
B=${B:-build}
export B
cd "$(dirname "$0")/.."
pass=0 fail=0 skip=0
# Each suite runs in a session of its own; whatever it leaves running (a
# server it started and did not stop) is killed when it ends, so no leftover
# holds the run's output open or a lock a later step needs.
run_suite() {
	local name=$1; shift
	echo "=== $name"
	local t0=$SECONDS
	setsid "$@" &
	local pid=$!
	wait "$pid"
	local rc=$?
	echo "--- $name: $((SECONDS - t0)) s"
	if pgrep -s "$pid" > /dev/null 2>&1; then
		echo "WARN: suite $name left processes running: $(pgrep -s "$pid" -a | cut -c1-100 | head -3 | tr '\n' ';') (killed)"
		pkill -TERM -s "$pid" 2> /dev/null
		sleep 0.5
		pkill -KILL -s "$pid" 2> /dev/null
	fi
	case $rc in
	0) pass=$((pass + 1)) ;;
	77) skip=$((skip + 1)); echo "SKIP: suite $name" ;;
	*) fail=$((fail + 1)); echo "FAIL: suite $name (exit $rc)" ;;
	esac
}
chosen() { [ -z "${SBX_SUITES:-}" ] || [[ " $SBX_SUITES " == *" $1 "* ]]; }
for n in ${SBX_SUITES:-}; do
	[ "$n" = unit ] || [ -e "tests/suite-$n.sh" ] || { echo "FAIL: SBX_SUITES names $n: no tests/suite-$n.sh"; fail=$((fail + 1)); }
done
chosen unit && run_suite unit "$B/tests/unit" --jobs=2
for s in tests/suite-*.sh; do
	[ -e "$s" ] || continue
	n=$(basename "$s" .sh); chosen "${n#suite-}" || continue
	run_suite "$(basename "$s" .sh)" bash "$s"
done
echo "suites: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
