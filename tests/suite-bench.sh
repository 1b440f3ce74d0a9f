#!/bin/bash
# suite-bench.sh - run the benchmark in its quick mode (as `make bench-quick`)
# so it cannot rot: it must complete and write a well-formed report.  No
# timing assertions: only the shape of the output is checked.
set -uo pipefail
cd "$(dirname "$0")/.."
B=${B:-build}
command -v hyperfine > /dev/null || { echo "SKIP: hyperfine not installed (scripts/deps.sh)"; exit 77; }
if [ -x "$B/bin/sbc" ] && grep -q __asan_init "$B/bin/sbc"; then
	echo "SKIP: $B is a sanitizer build: the benchmark runs on the normal build"
	exit 77
fi
out=$B/bench/suite-quick.md
rm -f "$out"
fails=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

if B=$B bench/run.sh --quick --out "$out" > "$B/bench-suite.log" 2>&1; then
	pass "bench/run.sh --quick completes"
else
	fail "bench/run.sh --quick exited non-zero (see $B/bench-suite.log)"
fi
if [ ! -s "$out" ]; then
	fail "no report written at $out"
	exit 1
fi
pass "report written ($out)"

for h in '# Benchmarks' '## Machine' '## 1. Compile' '## 2. Launch overhead' \
	'## 3. Landlock planning' '## 4. Workload cost' '## 5. Evaluator' '## 6. The original'; do
	if grep -qF -- "$h" "$out"; then pass "section '$h' present"; else fail "section '$h' missing"; fi
done

# Every table: a header row, a separator row with as many cells, and data
# rows with as many cells (escaped \| does not count).
bad=$(awk '
	function cells(s) { gsub(/\\\|/, "", s); return gsub(/\|/, "|", s) - 1 }
	/^\|/ { n = cells($0)
		if (!intable) { intable = 1; want = n; rows = 0; hdr = NR; next }
		if (n != want) printf "line %d: %d cells, header at line %d has %d\n", NR, n, hdr, want
		rows++; next }
	intable { if (rows < 2) printf "table at line %d has no data row\n", hdr; intable = 0 }
	END { if (intable && rows < 2) printf "table at line %d has no data row\n", hdr }' "$out")
if [ -z "$bad" ]; then pass "every table is well-formed"; else fail "malformed tables: $bad"; fi

# A figure that could be measured must be a number: sections whose tools
# exist must not report a failure.
if grep -n 'not run: .*failed\|| failed' "$out"; then
	fail "a measurement failed (lines above)"
else
	pass "no measurement failed"
fi
if [ -x "$B/bin/sbc" ]; then
	if grep -E '^\| `sbc examples/omp.sbx` \| [0-9]+ \| [^|]* \| [0-9.]+ \|' "$out" > /dev/null; then
		pass "compile figures present"
	else
		fail "sbc is built but the compile row has no figures"
	fi
else
	echo "SKIP: sbc not built: compile figures not checked"
fi
grep 'not run:' "$out" | sed 's/^| *\([^|]*\)| *not run: *\([^|]*\).*/SKIP: \1: \2/'
[ "$fails" -eq 0 ]
