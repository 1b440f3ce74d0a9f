#!/usr/bin/env bash
# Run each libFuzzer harness given on the command line for FUZZ_SECONDS,
# starting from its committed seed corpus fuzz/corpus/NAME/ (NAME = harness
# name without "fuzz_").  New inputs go to $B/corpus/NAME (the committed
# corpus is never written), findings to $B/crashes/.  Prints executions and
# crashes per harness; exits 1 when any harness found a crash.
set -uo pipefail
B=${B:-build-fuzz}
secs=${FUZZ_SECONDS:-60}
cd "$(dirname "$0")/.."
mkdir -p "$B/crashes" "$B/logs"
status=0
printf '%-12s %12s %8s %s\n' harness executions crashes result
for bin in "$@"; do
	h=$(basename "$bin")
	name=${h#fuzz_}
	work="$B/corpus/$name"
	mkdir -p "$work"
	seeds="fuzz/corpus/$name"
	[ -d "$seeds" ] || seeds=
	dict=()
	[ -f "fuzz/$name.dict" ] && dict=(-dict="fuzz/$name.dict")
	log="$B/logs/$name.log"
	before=$(find "$B/crashes" -name "$name-*" | wc -l)
	ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1} \
	UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
		"$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-max_len=8192 -print_final_stats=1 \
		"${dict[@]}" \
		-artifact_prefix="$B/crashes/$name-" "$work" $seeds >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	after=$(find "$B/crashes" -name "$name-*" | wc -l)
	crashes=$((after - before))
	if [ "$rc" -ne 0 ] || [ "$crashes" -ne 0 ]; then
		result="FAIL (exit $rc; see $log)"
		status=1
	else
		result=PASS
	fi
	printf '%-12s %12s %8s %s\n' "$name" "${execs:-?}" "$crashes" "$result"
done
exit $status
