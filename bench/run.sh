#!/bin/bash
# bench/run.sh - the omp-sandbox benchmark: one command, one run, every
# figure next to a baseline measured in the same run.  Writes a Markdown
# report (default docs/benchmarks.md) and the raw hyperfine JSON/CSV under
# $B/bench/results/.
#
#   bench/run.sh            full run (sizes 1k/10k/100k, many runs; ~10 min)
#   bench/run.sh --quick    small sizes, few runs (CI: tests/suite-bench.sh);
#                           writes $B/bench/benchmarks-quick.md by default
#   --out FILE              write the report there instead
#
# Needs root for the private mount namespace (throwaway home on a tmpfs, the
# generated trees of gen_tree.sh); without it the sections that need one say
# "not run".  Tools: hyperfine, bwrap, strace (scripts/deps.sh installs them).
# No section ever fails the run for being slow: there are no timing
# assertions here; a missed target is reported with its margin.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT_DIR=$PWD
B=${B:-build}
case $B in /*) ;; *) B=$ROOT_DIR/$B ;; esac
export B

ARGS=("$@")
quick=0
out=
while [ $# -gt 0 ]; do
	case $1 in
	--quick) quick=1 ;;
	--out) out=${2:?--out needs a file}; shift ;;
	--out=*) out=${1#--out=} ;;
	-h|--help) sed -n '2,16p' "$0"; exit 0 ;;
	*) echo "run.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift
done
if [ -z "$out" ]; then
	if [ "$quick" = 1 ]; then out=$B/bench/benchmarks-quick.md; else out=$ROOT_DIR/docs/benchmarks.md; fi
fi
case $out in /*) ;; *) out=$ROOT_DIR/$out ;; esac
export SB_BENCH_QUICK=$quick SB_BENCH_OUT=$out

log() { echo "bench: $*" >&2; }

# ---------------------------------------------------------------- outer part
# Build (outside the namespace, so the products persist), then run the
# measurements in a private mount namespace, then remove the (empty) mount
# point.  Never `rm -rf` anything that may hold bind mounts of /.
if [ -z "${SB_BENCH_NS_TMP:-}" ]; then
	log "building ($B)"
	make --no-print-directory -s B="$B" all >&2 || log "build of sbc/sbrun/omp-sandboxed failed; sections that need them will say so"
	for t in rusage landlock_abi plan_bench eval_bench proxy_bench notify_floor; do
		[ -e "bench/$t.c" ] || continue
		# eval_bench may have its own rule ($B/bin/eval_bench, branch sbpl)
		[ $t = eval_bench ] && make --no-print-directory -s B="$B" "$B/bin/$t" > /dev/null 2>&1 && continue
		make --no-print-directory -s B="$B" "$B/bench/$t" >&2 || log "could not build $B/bench/$t"
	done
	mkdir -p "$B/bench/results" "$(dirname "$out")"
	# The peers (section 7), pinned, into bench/.peers (git-ignored); the quick
	# run (CI) skips them.  A failure is recorded and reported, never fatal.
	if [ "$quick" != 1 ] || [ -n "${SB_BENCH_PEERS:-}" ]; then
		if ! "$ROOT_DIR/bench/peers.sh" install > /dev/null 2> "$B/bench/peers.err"; then
			log "peers not installed: $(tail -1 "$B/bench/peers.err")"
		fi
	fi
	# On a shared host, a higher priority keeps other jobs from inflating the
	# wall-clock figures (recorded in the report).
	[ "$(id -u)" = 0 ] && renice -n -10 -p $$ > /dev/null 2>&1
	if [ "$(id -u)" = 0 ] && command -v unshare > /dev/null; then
		tmp=$(mktemp -d /tmp/sbbench.XXXXXXXX)
		# rmdir only: the namespace's mounts are gone once it exits
		trap 'rmdir "$tmp" 2> /dev/null || log "left $tmp (not empty?)"' EXIT
		SB_BENCH_NS_TMP=$tmp unshare -m --propagation private "$0" "${ARGS[@]}"
		exit $?
	fi
	log "not root or no unshare: running without a private mount namespace"
	SB_BENCH_NS_TMP=none exec "$0" "${ARGS[@]}"
fi

# ---------------------------------------------------------------- set-up
T=$SB_BENCH_NS_TMP
R=$B/bench/results
in_ns=0
if [ "$T" != none ]; then
	in_ns=1
	mount -t tmpfs -o mode=0700 sbbench "$T" || { log "cannot mount a tmpfs on $T"; exit 1; }
	# A private /dev/null: devtmpfs is shared with every other namespace on the
	# host, and a concurrent `sbc -o /dev/null` (which writes a temporary file
	# and renames it over the target) turns the host's into a regular file.
	mknod -m 666 "$T/null" c 1 3 && mount --bind "$T/null" /dev/null || log "cannot bind a private /dev/null"
else
	T=$(mktemp -d /tmp/sbbench.XXXXXXXX)
	trap 'rm -rf "$T"' EXIT
fi
export PATH=/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin
export LC_ALL=C
SBC=$B/bin/sbc SBRUN=$B/bin/sbrun OMPS=$B/bin/omp-sandboxed
PROFILE=$B/gen/omp.sb
POLICY=$ROOT_DIR/examples/omp.sbx

# The throwaway home: a tmpfs over the real home of this uid, so nothing of
# the real one is read or written (the launch sections run with it).
real_home=$(getent passwd "$(id -un)" | cut -d: -f6)
if [ "$in_ns" = 1 ] && [ -n "$real_home" ] && [ -d "$real_home" ]; then
	mount -t tmpfs -o mode=0700 sbbench-home "$real_home"
	export HOME=$real_home
else
	export HOME=$T/home
	mkdir -p "$HOME"
fi
mkdir -p -m 0700 "$HOME/.omp"
WS=$HOME/ws
mkdir -p "$WS"
export TMPDIR=/tmp
cd "$WS" || exit 1

if [ "$quick" = 1 ]; then
	SIZES="100 300"; TREE_SIZES="100 300"; W=1; RUNS=3; LRUNS=10; LWARM=3
	LIMIT=30; PLAN_REPS=3; EVAL_SECS=0.2; EVAL_RUNS=1; WRUNS=2; HASH_DIR=$ROOT_DIR/compiler; DO_MAKE=0; DIFF_SIZES=100; ORUNS=5; TRACE_FILES=2000; GATE_FILES=2000
else
	SIZES="100 300 1000 3000 10000 100000"; TREE_SIZES="100 1000 10000"; W=3; RUNS=10; LRUNS=200; LWARM=20
	LIMIT=60; PLAN_REPS=21; EVAL_SECS=3; EVAL_RUNS=5; WRUNS=5; HASH_DIR=/usr/include; DO_MAKE=1; DIFF_SIZES="300 1000 10000"; ORUNS=30; TRACE_FILES=50000; GATE_FILES=10000
fi
# Developer knobs (not for published runs): other sizes, another time limit.
SIZES=${SB_BENCH_SIZES:-$SIZES}
LIMIT=${SB_BENCH_LIMIT:-$LIMIT}

have() { [ -x "$1" ]; }
ms() { awk -v s="$1" 'BEGIN { printf "%.3f", s * 1000 }'; }
calc() { awk "BEGIN { printf \"$1\", $2 }"; }

# hf NAME RUNS WARMUP [HYPERFINE-OPTION...] -- LABEL=COMMAND...
# Runs hyperfine without a shell; keeps JSON and CSV in $R.  Returns
# hyperfine's status.
hf() {
	local name=$1 runs=$2 warm=$3
	shift 3
	local opts=() cmds=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do opts+=("$1"); shift; done
	shift
	local c
	for c in "$@"; do cmds+=(-n "${c%%=*}" "${c#*=}"); done
	hyperfine -N --style none --warmup "$warm" --runs "$runs" "${opts[@]}" \
		--export-json "$R/$name.json" --export-csv "$R/$name.csv" "${cmds[@]}" \
		> "$R/$name.log" 2>&1
}
# hfv NAME LABEL FIELD -> the field (mean, stddev, median, min, max) in ms
hfv() {
	local v
	v=$(awk -F, -v l="$2" -v f="$3" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$1 == l { print $(col[f]); exit }' "$R/$1.csv" 2> /dev/null)
	[ -n "$v" ] && ms "$v"
}
# cpu NAME LABEL -> mean user + system time in ms (less sensitive to a busy
# host than wall time: time spent waiting for a CPU is not counted)
cpu() {
	local u s
	u=$(hfv "$1" "$2" user); s=$(hfv "$1" "$2" system)
	[ -n "$u" ] && calc %.3f "$u + $s"
}
# spread NAME LABEL -> "min–max, sd X"
spread() {
	printf '%s–%s, sd %s' "$(hfv "$1" "$2" min)" "$(hfv "$1" "$2" max)" "$(hfv "$1" "$2" stddev)"
}
# Markdown output is collected in $T/report.md and copied at the end.
REPORT=$T/report.md
: > "$REPORT"
md() { printf '%s\n' "$*" >> "$REPORT"; }
row() {
	local line="|" c
	for c in "$@"; do line+=" ${c//|/\\|} |"; done
	printf "%s\n" "$line" >> "$REPORT"
}
# thead CELL... : a header row and its separator (alignment from a leading
# ">" = right); remembers the width for na().
NCOLS=2
thead() {
	local c h=() s=()
	for c in "$@"; do
		if [ "${c#>}" != "$c" ]; then h+=("${c#>}"); s+=("---:"); else h+=("$c"); s+=("---"); fi
	done
	NCOLS=$#
	row "${h[@]}"
	row "${s[@]}"
}
# na WHAT WHY: a row saying a measurement was not run, padded to the table.
na() {
	local cells=("$1" "not run: $2") i
	for ((i = 2; i < NCOLS; i++)); do cells+=(""); done
	row "${cells[@]}"
}
# verdict VALUE OP LIMIT UNIT -> "met" or "missed by X UNIT (Y%)"
verdict() {
	awk -v v="$1" -v op="$2" -v l="$3" -v u="$4" 'BEGIN {
		ok = (op == "<") ? (v < l) : (v > l)
		if (ok) { printf "met"; exit }
		d = (op == "<") ? v - l : l - v
		p = (l != 0 ? 100 * d / l : 0)
		if (u != "") u = " " u
		printf (d >= 100 ? "**missed** by %.0f%s " : "**missed** by %.3g%s "), d, u
		printf (p < 10 ? "(%.1f%%)" : "(%.0f%%)"), p }'
}

# ---------------------------------------------------------------- machine
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
abi="unknown"
have "$B/bench/landlock_abi" && abi=$("$B/bench/landlock_abi")
md "# Benchmarks"
md ""
md "Generated by \`bench/run.sh$([ "$quick" = 1 ] && echo ' --quick')\` on $(date -u '+%Y-%m-%d %H:%M UTC'); regenerate with \`make bench\`."
md "Every ratio compares figures measured in this same run. Times are medians of hyperfine runs"
md "(no shell, \`-N\`), with the spread as min–max and standard deviation, in milliseconds."
md ""
md "## How to run"
md ""
md "\`\`\`sh"
md "make bench         # = bench/run.sh: full run, rewrites docs/benchmarks.md (about 10 minutes, as root)"
md "make bench-quick   # = bench/run.sh --quick: small sizes, few runs; what CI runs (tests/suite-bench.sh)"
md "\`\`\`"
md ""
md "\`bench/run.sh\` builds what it needs, then measures inside a private mount namespace (\`unshare -m\`) with a"
md "throwaway home on a tmpfs, so the real home is never read or written. Files: \`bench/gen_policy.sh\` (policies"
md "of N rules), \`bench/gen_tree.sh\` (N entries beside the home), \`bench/plan_bench.c\` (the Landlock planner"
md "alone), \`bench/workload.sh\` (the file-heavy jobs), \`bench/orig_wrapper_model.sh\` (the original wrapper's"
md "forks), \`bench/rusage.c\` (peak memory), \`bench/eval_bench.c\` (decide() throughput). Raw hyperfine JSON"
md "and CSV land in \`build/bench/results/\`."
md ""
md "How to read it: compare each figure with the baseline row of its own table, measured minutes apart on"
md "the same machine; \"ratio\" is median over baseline median. The spread (min–max, standard deviation) shows"
md "how noisy a figure is: on a shared host a long tail is other jobs, not the code under test. A target"
md "line says \"met\" or by how much it was missed; the analysis at the end says why and what would close it."
md ""
md "## Machine"
md ""
md "| | |"
md "|---|---|"
md "| CPU | $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), nproc $(nproc) |"
md "| kernel | $(uname -sr) |"
md "| Landlock ABI | $abi |"
md "| tools | $(hyperfine --version 2> /dev/null), $(bwrap --version 2> /dev/null), $(${CC:-cc} --version 2> /dev/null | head -1) |"
md "| mode | $([ "$quick" = 1 ] && echo 'quick (CI: small sizes, few runs; not for conclusions)' || echo full) |"
md "| priority | nice $(nice) (bench/run.sh raises its priority when run as root, so other jobs on a shared host disturb less) |"
md "| load average at start | $load_start (1/5/15 min) |"
md "| namespace | $([ "$in_ns" = 1 ] && echo 'private mount namespace, throwaway home on a tmpfs' || echo 'none (not root): launch and planning sections not run') |"
md ""

# ---------------------------------------------------------------- 1 compile
# probe LIMIT PROGRAM ARG... : one run under bench/rusage with a time limit;
# sets P_MS (wall), P_RSS ("x.y MiB") and P_STATUS (exit status or "timeout").
probe() {
	local limit=$1 line
	shift
	P_MS="" P_RSS="n/a" P_STATUS="n/a"
	if ! have "$B/bench/rusage"; then
		"$@" > /dev/null 2>&1 && P_STATUS=0 || P_STATUS=$?
		return
	fi
	line=$("$B/bench/rusage" -t "$limit" "$@" 2> /dev/null)
	P_MS=$(sed -n 's/.*wall_ms=\([0-9.]*\).*/\1/p' <<< "$line")
	P_STATUS=$(sed -n 's/.*status=\([a-z0-9]*\).*/\1/p' <<< "$line")
	local kb
	kb=$(sed -n 's/.*maxrss_kb=\([0-9]*\).*/\1/p' <<< "$line")
	[ -n "$kb" ] && P_RSS=$(calc '%.1f MiB' "$kb / 1024")
}
# runs_for MS: fewer hyperfine runs for slow commands (a 100k compile may
# take seconds): at most about 60 s per command.
runs_for() {
	awk -v ms="$1" -v r="$RUNS" 'BEGIN { n = int(60000 / (ms + 1)); if (n > r) n = r; if (n < 2) n = 2; print n }'
}

section_compile() {
	md "## 1. Compile (\`sbc\`)"
	md ""
	md "Baseline: \`cat\` of the same file (the cost of starting a process and reading the input)."
	md "Generated policies: \`bench/gen_policy.sh N 0 K\`: the omp shape plus N rule statements of K targets each"
	md "(each target is one path rule). Peak memory is the child's \`ru_maxrss\` from \`bench/rusage\`. A size"
	md "whose first run takes longer than $LIMIT s is stopped and reported as such."
	md ""
	thead "input" ">statements" ">targets (rules)" ">sbc median ms" "spread" ">ratio to cat" ">peak RSS" ">µs per target" ">SBPL rules out"
	if ! have "$SBC" || [ ! -f "$POLICY" ]; then
		na "sbc" "sbc or examples/omp.sbx missing"; md ""; return
	fi
	if ! hf compile "$RUNS" "$W" -- "cat=/bin/cat $POLICY" "omp=$SBC $POLICY"; then
		na "sbc" "hyperfine failed (see results/compile.log)"; md ""; return
	fi
	local cat_ms omp_ms
	cat_ms=$(hfv compile cat median)
	omp_ms=$(hfv compile omp median)
	probe "$LIMIT" /bin/cat "$POLICY"
	row "\`cat examples/omp.sbx\` (baseline)" "–" "–" "$cat_ms" "$(spread compile cat)" "1" "$P_RSS" "" ""
	probe "$LIMIT" "$SBC" "$POLICY"
	row "\`sbc examples/omp.sbx\`" "$(grep -cE ';[[:space:]]*(#.*)?$' "$POLICY")" "" "$omp_ms" "$(spread compile omp)" \
		"$(calc %.2f "$omp_ms / $cat_ms")" "$P_RSS" "" "$("$SBC" "$POLICY" 2> /dev/null | grep -cE '^\((allow|deny)')"
	local size prev="" prev_ms="" growth="" first_ms="" first_n="" refused="" refused_ms="" refused_why="" t100k="" rss100k=""
	for size in $SIZES; do
		local n=${size%x*} per=1 t label
		[ "$size" != "$n" ] && per=${size#*x}
		local f=$T/gen_$size.sbx targets=$((n * per))
		label="generated $n × $per"
		"$ROOT_DIR/bench/gen_policy.sh" "$n" 0 "$per" > "$f"
		probe "$LIMIT" "$SBC" "$f"
		if [ "$P_STATUS" = timeout ]; then
			row "$label" "$n" "$targets" "> $((LIMIT * 1000)) (stopped after $LIMIT s)" "" "" "$P_RSS at stop" "" ""
			growth+="$targets targets: did not finish in $LIMIT s; "
			[ "$targets" -ge 100000 ] && t100k=timeout
			continue
		fi
		if [ "$P_STATUS" != 0 ]; then
			local why
			why=$("$SBC" "$f" 2>&1 > /dev/null | grep -m1 'error:' | sed 's/.*error: //')
			case $why in
			*'too large'*)
				row "$label" "$n" "$targets" "refused in $(calc %.1f "$P_MS") ms: $why" "" "" "$P_RSS" "" ""
				refused=${refused:-$targets} refused_ms=$P_MS refused_why=${why% [limit]} ;;
			*)
				row "$label" "$n" "$targets" "failed: sbc exit $P_STATUS: $why" "" "" "" "" "" ;;
			esac
			continue
		fi
		local rss=$P_RSS
		hf "compile$size" "$(runs_for "$P_MS")" "$([ "${P_MS%.*}" -gt 5000 ] && echo 0 || echo "$W")" -- "gen$size=$SBC $f" || {
			row "$label" "$n" "$targets" "failed: hyperfine (results/compile$size.log)" "" "" "" "" ""; continue; }
		t=$(hfv "compile$size" "gen$size" median)
		row "$label" "$n" "$targets" "$t" "$(spread "compile$size" "gen$size")" "$(calc %.1f "$t / $cat_ms")" "$rss" \
			"$(calc %.2f "($t - $omp_ms) * 1000 / $targets")" "$("$SBC" "$f" 2> /dev/null | grep -cE '^\((allow|deny)')"
		if [ -n "$prev" ] && [ "$per" = 1 ]; then
			growth+="$prev→$targets targets: time ×$(calc %.1f "($t - $omp_ms) / $prev_ms") (start-up subtracted) (linear would be ×$(calc %.1f "$targets / $prev")); "
		fi
		if [ "$per" = 1 ]; then
			# the last two sizes, start-up (the omp compile) subtracted, give the exponent
			first_ms=$prev_ms first_n=$prev
			prev=$targets prev_ms=$(calc %.3f "($t - $omp_ms > 0.001) ? $t - $omp_ms : 0.001")
		fi
		[ "$targets" -ge 100000 ] && t100k=$t rss100k=$rss
	done
	md ""
	md "Growth: ${growth:-n/a}"
	local extra=""
	if [ -n "$prev" ] && [ -n "$first_ms" ] && [ "$prev" != "$first_n" ]; then
		extra="; extrapolating the $first_n→$prev growth (exponent $(calc %.2f "log($prev_ms / $first_ms) / log($prev / $first_n)")), 100k rules would take about $(calc %.0f "$prev_ms / 1000 * (100000 / $prev) ^ (log($prev_ms / $first_ms) / log($prev / $first_n))") s"
	fi
	md ""
	if [ -n "$refused" ]; then
		md "Target: 100k rules in under 300 ms: **not measurable**: sbc refuses the policy (\"$refused_why\", \`compiler/front/parse.c\`)"
		md "in $(calc %.1f "$refused_ms") ms with a located error$extra."
	elif [ "$t100k" = timeout ]; then
		md "Target: 100k rules in under 300 ms: **missed**: not finished after $LIMIT s$extra."
	elif [ -n "$t100k" ]; then
		md "Target: 100k rules in under 300 ms: $(verdict "$t100k" '<' 300 ms) ($t100k ms)."
		local mib=${rss100k%% MiB}
		case $rss100k in
		*' MiB') md "Target: under 64 MiB peak at 100k rules: $(verdict "$mib" '<' 64 MiB) ($rss100k)." ;;
		*) md "Target: under 64 MiB peak at 100k rules: peak not measured (${rss100k:-no figure})." ;;
		esac
	fi
	md ""
}

# ---------------------------------------------------------------- 2 launch
BWRAP_ARGS=()
bwrap_args() {
	BWRAP_ARGS=(--ro-bind / / --dev /dev --tmpfs "$HOME" --bind "$HOME/.omp" "$HOME/.omp" --bind "$WS" "$WS" --bind /tmp /tmp)
}
section_launch() {
	md "## 2. Launch overhead (Linux)"
	md ""
	md "Baseline: bare \`/bin/true\`. \`sbrun\` runs it under the compiled omp profile (Landlock, no_new_privs,"
	md "seccomp); \`bwrap\` runs it under the closest bubblewrap equivalent of that policy:"
	md "\`--ro-bind / / --dev /dev --tmpfs \$HOME --bind ~/.omp ~/.omp --bind WS WS --bind /tmp /tmp\`."
	md "Home is the throwaway tmpfs home, the workspace \`~/ws\` (cwd)."
	md ""
	thead "command" ">median ms" "spread" ">minus bare" ">ratio to bare" ">ratio to bwrap" ">CPU ms (user+sys)"
	if [ "$in_ns" != 1 ]; then na "launch" "no private mount namespace"; md ""; return; fi
	if ! have "$SBRUN" || [ ! -f "$PROFILE" ]; then na "launch" "sbrun or $PROFILE missing"; md ""; return; fi
	if ! "$SBRUN" "$PROFILE" /bin/true 2> "$T/sbrun.err"; then
		na "sbrun" "sbrun $PROFILE /bin/true failed: $(head -1 "$T/sbrun.err" | cut -c1-100)"; md ""; return
	fi
	bwrap_args
	# sbrun uses masks (a private mount namespace) where the profile needs them;
	# sbrun-complement is the same launch without namespaces (docs/linux.md)
	local cmds=("bare=/bin/true" "env=/usr/bin/env /bin/true" "sbrun=$SBRUN $PROFILE /bin/true"
		"sbrun-complement=$SBRUN --mechanism complement $PROFILE /bin/true")
	if command -v bwrap > /dev/null && bwrap "${BWRAP_ARGS[@]}" /bin/true 2> "$T/bwrap.err"; then
		cmds+=("bwrap=$(command -v bwrap) ${BWRAP_ARGS[*]} /bin/true")
	else
		log "bwrap unusable: $(head -1 "$T/bwrap.err" 2> /dev/null)"
	fi
	hf launch "$LRUNS" "$LWARM" -- "${cmds[@]}" || { na "launch" "hyperfine failed (results/launch.log)"; md ""; return; }
	local bare sb bw envm
	bare=$(hfv launch bare median); sb=$(hfv launch sbrun median); bw=$(hfv launch bwrap median); envm=$(hfv launch env median)
	row "\`/bin/true\` (baseline)" "$bare" "$(spread launch bare)" "0" "1" "$([ -n "$bw" ] && calc %.2f "$bare / $bw")" "$(cpu launch bare)"
	row "\`/usr/bin/env /bin/true\` (one exec more: the floor of any launcher)" "$envm" "$(spread launch env)" "$(calc %.3f "$envm - $bare")" "$(calc %.2f "$envm / $bare")" "$([ -n "$bw" ] && calc %.2f "$envm / $bw")" "$(cpu launch env)"
	row "\`sbrun omp.sb /bin/true\`" "$sb" "$(spread launch sbrun)" "$(calc %.3f "$sb - $bare")" "$(calc %.2f "$sb / $bare")" "$([ -n "$bw" ] && calc %.2f "$sb / $bw")" "$(cpu launch sbrun)"
	local sc
	sc=$(hfv launch sbrun-complement median)
	row "\`sbrun --mechanism complement omp.sb /bin/true\` (no namespaces)" "$sc" "$(spread launch sbrun-complement)" "$(calc %.3f "$sc - $bare")" "$(calc %.2f "$sc / $bare")" "$([ -n "$bw" ] && calc %.2f "$sc / $bw")" "$(cpu launch sbrun-complement)"
	[ -n "$bw" ] && row "\`bwrap … /bin/true\`" "$bw" "$(spread launch bwrap)" "$(calc %.3f "$bw - $bare")" "$(calc %.2f "$bw / $bare")" "1" "$(cpu launch bwrap)"
	md ""
	md "Targets: within 1.25× of \`env /bin/true\`: $(verdict "$(calc %.3f "$sb / $envm")" '<' 1.25 '×') (ratio $(calc %.2f "$sb / $envm")); faster than bwrap: $([ -n "$bw" ] && verdict "$sb" '<' "$bw" ms || echo 'bwrap not run')."
	md "Masks (plan with masks + namespace probe + namespace + mounts) against the complement expansion, same run: ratio $(calc %.2f "$sb / $sc") ($(calc %.3f "$sb - $sc") ms more per launch; \`sbrun --plan\` shows the mechanism: $("$SBRUN" --plan "$PROFILE" 2> /dev/null | sed -n 's/^# mechanism: //p'))."
	md "In CPU time (user+sys, not counting waits for a CPU): sbrun minus bare $(calc %.3f "$(cpu launch sbrun) - $(cpu launch bare)") ms."
	if have "$B/bench/rusage"; then
		md "Preemptions (involuntary context switches, mean of 30 launches): bare $(preempt /bin/true), sbrun $(preempt "$SBRUN" "$PROFILE" /bin/true). Each one costs a wait for a CPU on a busy host."
	fi
	md "Landlock rules in this launch's plan (\`sbrun --plan\`): $("$SBRUN" --plan "$PROFILE" 2> /dev/null | grep -c '^rule ')."
	md ""
}

# preempt CMD...: mean involuntary context switches over 30 runs
preempt() {
	local i sum=0 n
	for ((i = 0; i < 30; i++)); do
		n=$("$B/bench/rusage" "$@" 2> /dev/null | sed -n 's/.*ivcsw=\([0-9]*\).*/\1/p')
		sum=$((sum + ${n:-0}))
	done
	calc %.2f "$sum / 30"
}

# ---------------------------------------------------------------- 3 planning
section_plan() {
	md "## 3. Landlock planning cost vs entries beside \$HOME"
	md ""
	md "\`bench/gen_tree.sh ROOT N\` builds a root (tmpfs, the real top-level entries bind-mounted) with N extra"
	md "entries in \`/\` and N beside the home \`/home/bench\` in \`/home\` (three in four directories, one in four"
	md "files). \`bench/plan_bench\` (chrooted there) times \`sb_ll_plan_build()\` alone for the omp policy with"
	md "HOME=/home/bench, workspace ~/ws, TMPDIR=/tmp: median of $PLAN_REPS builds. \`sbrun launch\` is"
	md "\`sbrun omp.sb /bin/true\` in the same root (HOME=the uid's home, so only the N entries in \`/\` are"
	md "beside it there), against \`/bin/true\` in the same root; both started as \`chroot ROOT env -C ~/ws ...\`."
	md ""
	md "Each size is planned twice: with the masks (the default where namespaces can be had) and with the"
	md "complement expansion alone (\`plan_bench ... complement\`, what runs where they cannot). The launch"
	md "columns run \`sbrun --mechanism masks\` and \`--mechanism complement\`: their difference is the masks'"
	md "set-up cost (namespaces, mounts) against the extra Landlock rules of the expansion."
	md ""
	thead ">N (in / and in /home)" ">plan rules (masks / complement)" ">plan median ms, masks" ">plan median ms, complement" "complement min–max" ">µs per rule (complement)" ">launch ms, masks" ">launch ms, complement" ">bare ms"
	if [ "$in_ns" != 1 ]; then na "planning" "no private mount namespace"; md ""; return; fi
	local n last_ms="" last_n="" ms10k=""
	for n in $TREE_SIZES; do
		local root=$T/tree$n
		if ! SBX_BENCH_PROJECT=$ROOT_DIR "$ROOT_DIR/bench/gen_tree.sh" "$root" "$n" 2> "$T/tree$n.err"; then
			na "$n" "gen_tree.sh failed: $(head -1 "$T/tree$n.err")"; continue
		fi
		local line="" rules="" med="" mn="" mx="" mrules="" mmed=""
		if have "$B/bench/plan_bench"; then
			line=$(chroot "$root" "$B/bench/plan_bench" "$POLICY" /home/bench /home/bench/ws /tmp "$PLAN_REPS" complement 2> "$T/plan$n.err")
			rules=$(sed -n 's/.*rules=\([0-9]*\).*/\1/p' <<< "$line")
			med=$(sed -n 's/.*median_ms=\([0-9.]*\).*/\1/p' <<< "$line")
			mn=$(sed -n 's/.*min_ms=\([0-9.]*\).*/\1/p' <<< "$line")
			mx=$(sed -n 's/.*max_ms=\([0-9.]*\).*/\1/p' <<< "$line")
			line=$(chroot "$root" "$B/bench/plan_bench" "$POLICY" /home/bench /home/bench/ws /tmp "$PLAN_REPS" masks 2> "$T/planm$n.err")
			mrules=$(sed -n 's/.*rules=\([0-9]*\).*/\1/p' <<< "$line")
			mmed=$(sed -n 's/.*median_ms=\([0-9.]*\).*/\1/p' <<< "$line")
			[ -n "$mmed" ] || mmed="failed: $(head -1 "$T/planm$n.err" 2> /dev/null | cut -c1-50)"
		fi
		if ! have "$B/bench/plan_bench"; then med="not built"
		elif [ -z "$med" ]; then med="failed: $(head -1 "$T/plan$n.err" 2> /dev/null | cut -c1-60)"; fi
		local lsb="" lsbc="" lbare=""
		if ! have "$SBRUN" || [ ! -f "$PROFILE" ]; then
			lsb="sbrun not built"
		elif chroot "$root" /usr/bin/env -C "$WS" "$SBRUN" --mechanism masks "$PROFILE" /bin/true 2> "$T/tl$n.err" &&
		     chroot "$root" /usr/bin/env -C "$WS" "$SBRUN" --mechanism complement "$PROFILE" /bin/true 2>> "$T/tl$n.err"; then
			if hf "tree$n" "$((LRUNS / 4 + 3))" "$LWARM" -- "bare=/usr/sbin/chroot $root /usr/bin/env -C $WS /bin/true" \
				"masks=/usr/sbin/chroot $root /usr/bin/env -C $WS $SBRUN --mechanism masks $PROFILE /bin/true" \
				"complement=/usr/sbin/chroot $root /usr/bin/env -C $WS $SBRUN --mechanism complement $PROFILE /bin/true"; then
				lsb=$(hfv "tree$n" masks median); lsbc=$(hfv "tree$n" complement median); lbare=$(hfv "tree$n" bare median)
			fi
		else
			lsb="failed: $(head -1 "$T/tl$n.err" 2> /dev/null | cut -c1-60)"
		fi
		umount -R "$root" || log "could not unmount $root"
		row "$n" "${mrules:-?} / ${rules:-?}" "$mmed" "$med" "${mn:+$mn–$mx}" \
			"$([ -n "$rules" ] && [ "$rules" -gt 0 ] && [ -n "$mn" ] && calc %.2f "$med * 1000 / $rules")" \
			"$lsb" "$lsbc" "$lbare"
		if [ -n "$mn" ]; then
			[ -n "$last_ms" ] && pgrowth="${pgrowth:-}$n/$last_n entries: plan time ×$(calc %.1f "$med / $last_ms"), rules ×$(calc %.1f "$rules / $last_rules"); "
			last_ms=$med last_n=$n last_rules=$rules
			[ "$n" = 10000 ] && ms10k=$med
		fi
	done
	md ""
	md "Growth: ${pgrowth:-n/a}"
	[ -n "$ms10k" ] && md "Target: under 50 ms at 10k (the complement plan, the larger one): $(verdict "$ms10k" '<' 50 ms) ($ms10k ms)."
	md ""
}

# ---------------------------------------------------------------- 4 workload
section_workload() {
	md "## 4. Workload cost"
	md ""
	md "The same job bare and under \`sbrun omp.sb\` (\`bench/workload.sh\`). hash: read and SHA-256 every file of"
	md "\`$HASH_DIR\` ($(find "$HASH_DIR" -type f 2> /dev/null | wc -l) files, $(du -sh "$HASH_DIR" 2> /dev/null | cut -f1))."
	[ "$DO_MAKE" = 1 ] && md "make: \`make -j2 all\` of a copy of this project in the workspace, from clean."
	md ""
	thead "job" ">bare median ms" "bare spread" ">sbrun median ms" "sbrun spread" ">sbrun / bare" "target < 1.05" ">CPU ratio (user+sys)"
	if [ "$in_ns" != 1 ]; then na "workload" "no private mount namespace"; md ""; return; fi
	if ! have "$SBRUN" || ! "$SBRUN" "$PROFILE" /bin/true 2> /dev/null; then na "workload" "sbrun unusable"; md ""; return; fi
	local wl=$ROOT_DIR/bench/workload.sh
	if hf hash "$WRUNS" 1 -- "bare=$wl hash $HASH_DIR" "sbrun=$SBRUN $PROFILE $wl hash $HASH_DIR"; then
		wrow hash "hash $(basename "$HASH_DIR")"
	else
		na "hash" "hyperfine failed: $(wfail "$wl" hash "$HASH_DIR")"
	fi
	if [ "$DO_MAKE" = 1 ]; then
		mkdir -p "$WS/proj"
		(cd "$ROOT_DIR" && tar -c --exclude='./build*' --exclude=./.git --exclude='./docs/benchmarks.md' .) | tar -x -C "$WS/proj"
		if hf make 3 0 -- "bare=$wl make $WS/proj $WS/proj/b-bare" "sbrun=$SBRUN $PROFILE $wl make $WS/proj $WS/proj/b-sb"; then
			wrow make "make -j2 (this project)"
		else
			na "make" "hyperfine failed: $(wfail "$wl" make "$WS/proj" "$WS/proj/b-bare")"
		fi
	fi
	md ""
}
# wfail JOB...: why a job failed: its status and last stderr line, bare and sandboxed
wfail() {
	local e1 e2
	e1=$("$@" 2>&1 > /dev/null | tail -1)
	e2=$("$SBRUN" "$PROFILE" "$@" 2>&1 > /dev/null | tail -1)
	printf 'bare: %s; sbrun: %s' "${e1:-ok}" "${e2:-ok}" | cut -c1-160
}
wrow() {
	local b s
	b=$(hfv "$1" bare median); s=$(hfv "$1" sbrun median)
	local r
	r=$(calc %.3f "$s / $b")
	row "$2" "$b" "$(spread "$1" bare)" "$s" "$(spread "$1" sbrun)" "$r" "$(verdict "$r" '<' 1.05 '')" "$(calc %.3f "$(cpu "$1" sbrun) / $(cpu "$1" bare)")"
}

# ---------------------------------------------------------------- 5 evaluator
section_eval() {
	md "## 5. Evaluator and \`sbc diff\`"
	md ""
	thead "measurement" ">result" "spread" "baseline / detail" "target" "verdict / growth"
	local eb=$B/bin/eval_bench
	have "$eb" || eb=$B/bench/eval_bench
	if have "$eb" && [ -f "$PROFILE" ]; then
		local line="" rates=() i rate
		for ((i = 0; i < EVAL_RUNS; i++)); do
			line=$("$eb" "$PROFILE" "$EVAL_SECS" 2> "$T/eval.err" | tail -1)
			rate=$(grep -oE '[0-9.]+ decisions/s' <<< "$line" | grep -oE '^[0-9.]+')
			[ -n "$rate" ] && rates+=("$rate")
		done
		if [ ${#rates[@]} -gt 0 ]; then
			local sorted
			sorted=$(printf '%s\n' "${rates[@]}" | sort -g)
			local med mn mx
			med=$(sed -n "$(( (${#rates[@]} + 1) / 2 ))p" <<< "$sorted")
			mn=$(head -1 <<< "$sorted"); mx=$(tail -1 <<< "$sorted")
			row "\`decide()\` on omp.sb (\`eval_bench\`, CPU time, $EVAL_RUNS runs of $EVAL_SECS s)" \
				"$(calc %.0f "$med") /s" "$(calc %.0f "$mn")–$(calc %.0f "$mx")" "\`${line#eval_bench: }\`" "> 1M/s" \
				"$(verdict "$med" '>' 1000000 '/s')"
		else
			na "decide() throughput" "eval_bench failed: $(head -1 "$T/eval.err" | cut -c1-80)"
		fi
	else
		na "decide() throughput" "bench/eval_bench (branch sbpl) not built yet"
	fi
	local n dprev="" dprev_ms=""
	for n in $DIFF_SIZES; do
		if ! have "$SBC"; then na "sbc diff" "sbc not built"; break; fi
		# SBPL written directly: sbc refuses policies of more than 1000 statements
		"$ROOT_DIR/bench/gen_policy.sh" --sbpl "$n" 0 > "$T/d0_$n.sb"
		"$ROOT_DIR/bench/gen_policy.sh" --sbpl "$n" 1 > "$T/d1_$n.sb"
		local label="\`sbc diff\` two profiles of $n generated rules + 7 ($((n / 10)) rules differ)"
		probe "$LIMIT" "$SBC" diff "$T/d0_$n.sb" "$T/d1_$n.sb"
		if [ "$P_STATUS" = timeout ]; then
			row "$label" "> $((LIMIT * 1000)) ms (stopped after $LIMIT s)" "" "" "–" "–"
			continue
		fi
		case $P_STATUS in 0|1|2) ;; *)
			na "$label" "sbc diff failed (exit $P_STATUS): $("$SBC" diff "$T/d0_$n.sb" "$T/d1_$n.sb" 2>&1 > /dev/null | head -1 | cut -c1-80)"
			continue ;;
		esac
		local drc=$P_STATUS r
		r=$(runs_for "$P_MS")
		# A slow size is timed without the self-diff baseline, to keep the run short.
		local slow=0 cmds=("diff=$SBC diff $T/d0_$n.sb $T/d1_$n.sb")
		[ "${P_MS%.*}" -gt 5000 ] && slow=1
		[ "$slow" = 0 ] && cmds=("same=$SBC diff $T/d0_$n.sb $T/d0_$n.sb" "${cmds[@]}")
		if hf "diff$n" "$r" "$([ "$slow" = 1 ] && echo 0 || echo "$W")" -i -- "${cmds[@]}"; then
			local dm sm
			dm=$(hfv "diff$n" diff median); sm=$(hfv "diff$n" same median)
			local tgt="–" vd=""
			[ "$n" = 10000 ] && tgt="< 500 ms" vd="$(verdict "$dm" '<' 500 ms); "
			row "$label, exit $drc" "$dm ms" "$(spread "diff$n" diff)" "CPU $(cpu "diff$n" diff) ms; $([ -n "$sm" ] && echo "a profile against itself: $sm ms" || echo "self-diff not timed at this size")" "$tgt" \
				"$vd$([ -n "$dprev" ] && echo "×$(calc %.1f "$dm / $dprev_ms") for ×$(calc %.1f "$n / $dprev") rules")"
			dprev=$n dprev_ms=$dm
		else
			na "$label" "hyperfine failed (results/diff$n.log)"
		fi
	done
	md ""
}

# ---------------------------------------------------------------- 6 original
section_orig() {
	md "## 6. The original wrapper's cost model"
	md ""
	md "\`bench/orig_wrapper_model.sh\` forks exactly as the original's \`--print-profile\` path does (11 forks and"
	md "4 external programs: \`id\`, \`dscl\` (here \`getent\`), \`cat\` for the heredoc, \`ls\` from the backtick"
	md "in a comment; see the script's header for the count) and prints a profile of the same shape. It is"
	md "compared with \`omp-sandboxed --print-profile\` (in-process, no subprocess) on the same inputs; omp is a"
	md "stand-in script on PATH. Processes and execs are counted with \`strace -f\`."
	md ""
	thead "command" ">median ms" "spread" ">processes created" ">programs exec'd" ">ratio" ">CPU ms (user+sys)"
	if ! have "$OMPS"; then na "omp-sandboxed" "not built"; md ""; return; fi
	local fb=$T/fakebin
	mkdir -p "$fb"
	printf '#!/bin/sh\necho omp/0.0.0\n' > "$fb/omp"
	chmod +x "$fb/omp"
	local model=$ROOT_DIR/bench/orig_wrapper_model.sh
	if ! PATH=$fb:$PATH "$OMPS" --print-profile > "$T/omps.sb" 2> "$T/omps.err"; then
		na "omp-sandboxed --print-profile" "failed: $(head -1 "$T/omps.err" | cut -c1-80)"; md ""; return
	fi
	PATH=$fb:$PATH hf orig "$ORUNS" 3 -- "model=$model" "ours=$OMPS --print-profile" ||
		{ na "orig" "hyperfine failed (results/orig.log)"; md ""; return; }
	local mm om
	mm=$(hfv orig model median); om=$(hfv orig ours median)
	row "\`orig_wrapper_model.sh\` (the original's forks)" "$mm" "$(spread orig model)" "$(procs "$model")" "$(execs "$model")" "$(calc %.1f "$mm / $om")" "$(cpu orig model)"
	row "\`omp-sandboxed --print-profile\`" "$om" "$(spread orig ours)" "$(procs "$OMPS" --print-profile)" "$(execs "$OMPS" --print-profile)" "1" "$(cpu orig ours)"
	md ""
	md "Profile sizes: model $(PATH=$fb:$PATH "$model" | wc -c) bytes, ours $(wc -c < "$T/omps.sb") bytes."
	md ""
}
strace_run() {
	command -v strace > /dev/null || return 1
	PATH=$T/fakebin:$PATH strace -f -qq -e trace=process -o "$T/strace.out" "$@" > /dev/null 2>&1
}
# procs: processes created besides the first (fork/vfork/clone without CLONE_THREAD)
procs() {
	strace_run "$@" || { echo "n/a (no strace)"; return; }
	grep -E '(clone3?|v?fork)\(' "$T/strace.out" | grep -vc 'CLONE_THREAD'
}
# execs: successful execve calls, the first (the command itself) included
execs() {
	strace_run "$@" || { echo "n/a"; return; }
	grep -E 'execve\(' "$T/strace.out" | grep -c '= 0$'
}

# ---------------------------------------------------------------- 7 peers
# The peers run as close to the default policy (examples/omp.sbx) as their
# settings allow; the configurations are printed in the report.
section_peers() {
	md "## 7. Peers side by side"
	md ""
	if [ "$quick" = 1 ] && [ -z "${SB_BENCH_PEERS:-}" ]; then
		md "Not run in the quick mode (\`SB_BENCH_PEERS=1\` runs it)."; md ""; return
	fi
	if [ "$in_ns" != 1 ]; then md "Not run: no private mount namespace."; md ""; return; fi
	local penv
	if ! penv=$("$ROOT_DIR/bench/peers.sh" env 2> "$T/peers.err"); then
		md "Not run: $(cat "$B/bench/peers.err" "$T/peers.err" 2> /dev/null | tail -1)"; md ""; return
	fi
	local CODEX_VERSION SRT_VERSION CODEX_NATIVE CODEX_NPM SRT
	eval "$penv"
	[ ${#BWRAP_ARGS[@]} -gt 0 ] || bwrap_args
	local srtcfg=$T/srt-settings.json
	printf '{"network":{"allowedDomains":[],"deniedDomains":[]},"filesystem":{"denyRead":["%s"],"allowRead":["%s","%s"],"allowWrite":["%s","%s","/tmp"],"denyWrite":[]}}\n' \
		"$HOME" "$WS" "$HOME/.omp" "$WS" "$HOME/.omp" > "$srtcfg"
	# One string, quoted for both bash -c and hyperfine -N (shell-words).
	local codex_opts="sandbox -c 'sandbox_mode=\"workspace-write\"' -c 'sandbox_workspace_write.writable_roots=[\"$HOME/.omp\"]' -c 'sandbox_workspace_write.network_access=true' --"
	md "Each runs \`/bin/true\` (launch) and the jobs of section 4 from the workspace, in the same private"
	md "namespace and throwaway home as the rest of this run. Configurations, as close to the default"
	md "policy (write: workspace, \`~/.omp\`, \`/tmp\`; home unreadable but those; network open) as each allows:"
	md ""
	md "- \`sbrun\`: \`sbrun omp.sb CMD\` (the embedded default policy, compiled)."
	md "- bubblewrap $(bwrap --version 2> /dev/null | cut -d' ' -f2): \`bwrap ${BWRAP_ARGS[*]} CMD\` (home hidden by a tmpfs; the rest of / read-only)."
	md "- OpenAI Codex CLI $CODEX_VERSION (npm \`@openai/codex\`), its Linux sandbox: \`codex $codex_opts CMD\`;"
	md "  the native binary, and through the npm launcher (node). It cannot hide the home from reads."
	md "- Anthropic sandbox-runtime $SRT_VERSION (npm \`@anthropic-ai/sandbox-runtime\`): \`srt -s settings.json CMD\` with"
	md "  \`$(sed "s|$HOME|~|g" "$srtcfg")\`. Its network is an allowlist (empty here: it cannot leave"
	md "  the network open without proxying it), so each launch also starts its proxies."
	md ""
	local cands=("bare=/bin/true" "env=/usr/bin/env /bin/true" "sbrun=$SBRUN $PROFILE /bin/true")
	command -v bwrap > /dev/null && cands+=("bwrap=$(command -v bwrap) ${BWRAP_ARGS[*]} /bin/true")
	cands+=("codex=$CODEX_NATIVE $codex_opts /bin/true" "codex-npm=$CODEX_NPM $codex_opts /bin/true" "srt=$SRT -s $srtcfg /bin/true")
	# Keep only the commands that work here, and say why the others do not.
	local ok=() c label
	for c in "${cands[@]}"; do
		label=${c%%=*}
		# shellcheck disable=SC2086
		if bash -c "${c#*=}" > "$T/peer.out" 2>&1; then ok+=("$c"); else
			md "- $label does not run here: $(tail -1 "$T/peer.out" | cut -c1-160)"; fi
	done
	md ""
	md "### Launch"
	md ""
	thead "command" ">median ms" "spread" ">ratio to bare" ">ratio to env" ">CPU ms (user+sys)"
	# codex and srt take tens to hundreds of ms: fewer runs keep the section short.
	local pr=$((LRUNS / 4)); [ $pr -lt 10 ] && pr=10
	local hcmds=()
	for c in "${ok[@]}"; do hcmds+=("${c%%=*}=${c#*=}"); done
	# hyperfine -N splits on spaces: the codex -c values hold none.
	if hf peers "$pr" 3 -- "${hcmds[@]}"; then
		local bare envm v
		bare=$(hfv peers bare median); envm=$(hfv peers env median)
		for c in "${ok[@]}"; do
			label=${c%%=*}; v=$(hfv peers "$label" median)
			row "$label" "$v" "$(spread peers "$label")" "$(calc %.2f "$v / $bare")" "$(calc %.2f "$v / $envm")" "$(cpu peers "$label")"
		done
	else
		na "launch" "hyperfine failed (results/peers.log)"
	fi
	md ""
	md "### Workload (ratios to bare, one run)"
	md ""
	local wl=$ROOT_DIR/bench/workload.sh jobs=("hash=hash $HASH_DIR")
	[ "$DO_MAKE" = 1 ] && [ -d "$WS/proj" ] && jobs+=("make=make $WS/proj $WS/proj/b-peer")
	local heads=("job" ">bare ms")
	for c in "${ok[@]}"; do label=${c%%=*}; case $label in bare|env) ;; *) heads+=(">$label / bare") ;; esac; done
	thead "${heads[@]}"
	local j
	for j in "${jobs[@]}"; do
		local jn=${j%%=*} ja=${j#*=}
		local wc=("bare=$wl $ja")
		for c in "${ok[@]}"; do
			label=${c%%=*}
			case $label in bare|env) continue ;; esac
			local pre=${c#*=}; pre=${pre% /bin/true}
			wc+=("$label=$pre $wl $ja")
		done
		if hf "peers-$jn" 3 1 -- "${wc[@]}"; then
			local b cells=() 
			b=$(hfv "peers-$jn" bare median)
			for c in "${wc[@]:1}"; do cells+=("$(calc %.2f "$(hfv "peers-$jn" "${c%%=*}" median) / $b")"); done
			row "$jn" "$b" "${cells[@]}"
		else
			na "$jn" "hyperfine failed (results/peers-$jn.log)"
		fi
	done
	md ""
}

# ---------------------------------------------------------------- 8 trace
# The denial trace (docs/trace.md): sbrun --trace against plain sbrun on the
# same job, in the same run.  Target: under 1.20x on the file-heavy jobs.
section_trace() {
	md "## 8. Denial trace overhead (Linux)"
	md ""
	md "\`sbrun --trace=FILE omp.sb JOB\` (the seccomp user-notification supervisor, docs/trace.md) against"
	md "\`sbrun omp.sb JOB\`. launch: \`/bin/true\`. git status: \`git status --porcelain\` in a committed"
	md "repository of $TRACE_FILES files in $((TRACE_FILES / 20)) directories in the workspace."
	[ "$DO_MAKE" = 1 ] && md "make: \`make -j2 all\` of a copy of this project in the workspace, from clean."
	md ""
	thead "job" ">sbrun median ms" "sbrun spread" ">traced median ms" "traced spread" ">traced / sbrun" "target" ">CPU ratio (user+sys)"
	if [ "$in_ns" != 1 ]; then na "trace" "no private mount namespace"; md ""; return; fi
	if ! have "$SBRUN" || ! "$SBRUN" --trace="$T/trace.log" "$PROFILE" /bin/true 2> "$T/trace.err"; then
		na "trace" "sbrun --trace unusable: $(head -1 "$T/trace.err" | cut -c1-100)"; md ""; return
	fi
	local tr="$SBRUN --trace=$T/trace.log $PROFILE" sb="$SBRUN $PROFILE"
	if hf trace-launch "$LRUNS" "$LWARM" -- "sbrun=$sb /bin/true" "traced=$tr /bin/true"; then
		trow trace-launch "launch (/bin/true)" 0
	else
		na "launch" "hyperfine failed (results/trace-launch.log)"
	fi
	local repo=$WS/gitbig
	rm -rf "$repo"
	mkdir -p "$repo"
	(cd "$repo" && seq 0 $((TRACE_FILES / 20 - 1)) | sed 's/^/d/' | xargs mkdir -p &&
		seq 0 $((TRACE_FILES - 1)) | awk '{ printf "d%d/f%d\n", $1 % '$((TRACE_FILES / 20))', $1 }' | xargs touch &&
		git init -q && git add -A && git -c user.name=b -c user.email=b@b.invalid commit -qm t) ||
		log "could not make the git repository"
	if hf trace-git "$WRUNS" 1 -- "sbrun=$sb /usr/bin/git -C $repo status --porcelain" \
		"traced=$tr /usr/bin/git -C $repo status --porcelain"; then
		trow trace-git "git status ($TRACE_FILES files)" 1
	else
		na "git status" "hyperfine failed (results/trace-git.log)"
	fi
	if [ "$DO_MAKE" = 1 ]; then
		local wl=$ROOT_DIR/bench/workload.sh
		if [ ! -d "$WS/proj" ]; then
			mkdir -p "$WS/proj"
			(cd "$ROOT_DIR" && tar -c --exclude='./build*' --exclude=./.git --exclude='./docs/benchmarks.md' .) | tar -x -C "$WS/proj"
		fi
		if hf trace-make 3 0 -- "sbrun=$sb $wl make $WS/proj $WS/proj/b-sb" "traced=$tr $wl make $WS/proj $WS/proj/b-tr"; then
			trow trace-make "make -j2 (this project)" 1
		else
			na "make" "hyperfine failed (results/trace-make.log)"
		fi
	fi
	md ""
	md "Denials reported in these runs: $(grep -c 'sandbox: denied' "$T/trace.log" 2> /dev/null) (the jobs need nothing the policy denies; every traced call is classified all the same)."
	md ""
	trace_floor "$repo"
}
# The floor under any seccomp user-notification observer on this host
# (bench/notify_floor.c: a supervisor that only answers "continue"), and
# what it means for the git job: its traced calls, counted with strace in
# the supervisor's serving thread, times the floor, over the untraced time.
trace_floor() {
	local nf=$B/bench/notify_floor out per plain calls n c floor_ratio
	have "$nf" || { md "Notification floor: not measured (no $nf)."; md ""; return; }
	out=$("$nf" 20000 2> /dev/null) || { md "Notification floor: notify_floor failed."; md ""; return; }
	per=$(awk '$1 == "per_notification" { print $2 }' <<< "$out")
	plain=$(awk '$1 == "plain" { print $2 }' <<< "$out")
	md "**Floor.** One seccomp user notification answered by a supervisor that does nothing else"
	md "(\`bench/notify_floor\`, synchronous wake-up $(awk '$1 == "sync_wake_up" { print $2 }' <<< "$out")) adds $per µs to a directory open"
	md "that takes $plain µs untraced, on this host."
	if command -v strace > /dev/null && [ -d "$1/.git" ]; then
		rm -rf "$T/floor" && mkdir -p "$T/floor"
		strace -f -ff -qq -o "$T/floor/t" "$SBRUN" --trace="$T/floor.log" "$PROFILE" /usr/bin/git -C "$1" status --porcelain > /dev/null 2>&1
		local srv
		srv=$(grep -lE 'SECCOMP_IOCTL_NOTIF_RECV|0x21, 0, 0x50' "$T"/floor/t.* 2> /dev/null | head -1)
		if [ -n "$srv" ]; then
			n=$(grep -cE 'NOTIF_RECV|0x21, 0, 0x50' "$srv")
			c=$(grep -cvE '^\+\+\+|^---|resumed>' "$srv")
			floor_ratio=$(calc %.3f "1 + $n * $per / 1000 / $(hfv trace-git sbrun median)")
			md "The git job made $n traced calls; the supervisor's serving thread made $(calc %.2f "$c / $n") system calls per traced"
			md "call, RECV and SEND included. $n × $per µs over the untraced median gives a floor of **$floor_ratio×** for"
			md "this job: what no supervisor built on user notifications can go below here."
		fi
	fi
	md ""
}
# trow NAME LABEL FILE_HEAVY: one row; the 1.20 target applies to file-heavy jobs
trow() {
	local s t r
	s=$(hfv "$1" sbrun median); t=$(hfv "$1" traced median)
	r=$(calc %.3f "$t / $s")
	row "$2" "$s" "$(spread "$1" sbrun)" "$t" "$(spread "$1" traced)" "$r" \
		"$([ "$3" = 1 ] && verdict "$r" '<' 1.20 '' || echo 'none (launch: one fork more)')" \
		"$(calc %.3f "$(cpu "$1" traced) / $(cpu "$1" sbrun)")"
}

# ---------------------------------------------------------------- 9 proxy
# The egress proxy (docs/egress.md) against a direct connection on loopback:
# bench/proxy_bench's client runs under sbrun with `network on` (direct) and
# with host rules (through the proxy, CONNECT), against the same server in
# the host's namespace, rounds interleaved.  Targets: throughput >= 90% of
# direct, added set-up < 1 ms.
section_proxy() {
	local pb=$B/bench/proxy_bench rounds=$([ "$quick" = 1 ] && echo 2 || echo 5)
	local conns=$([ "$quick" = 1 ] && echo 100 || echo 300)
	local mib=$([ "$quick" = 1 ] && echo 64 || echo 256)
	md "## 9. Egress proxy: set-up latency and throughput (Linux)"
	md ""
	md "\`bench/proxy_bench\` under \`sbrun\`: direct (\`network on\`) against through the proxy (\`network off; network allow \"127.0.0.1\";\`,"
	md "HTTP CONNECT to the same loopback server), $rounds interleaved rounds each. Set-up: connect (and CONNECT), one byte"
	md "there and back, median of $conns connections per round. Throughput: one $mib MiB download per connection, 3 per round."
	md "Figures are medians over the rounds."
	md ""
	thead "measure" ">direct" ">through the proxy" ">proxy vs direct" "target"
	if [ "$in_ns" != 1 ]; then na "proxy" "no private mount namespace"; md ""; return; fi
	if ! have "$pb"; then na "proxy" "bench/proxy_bench not built"; md ""; return; fi
	printf 'include "%s";\nnetwork off;\nnetwork allow "127.0.0.1";\n' "$POLICY" > "$T/proxy.sbx"
	if ! "$SBC" -o "$T/proxy.sb" "$T/proxy.sbx" 2> "$T/proxy.err"; then
		na "proxy" "the policy does not compile: $(head -1 "$T/proxy.err" | cut -c1-100)"; md ""; return
	fi
	"$pb" serve "$T/proxy.port" & local spid=$!
	local i
	for i in $(seq 1 50); do [ -s "$T/proxy.port" ] && break; sleep 0.05; done
	local port; port=$(cat "$T/proxy.port" 2> /dev/null)
	: > "$R/proxy.txt"
	local ok=1 mode prof
	for i in $(seq 1 "$rounds"); do
		for mode in direct proxy; do
			prof=$PROFILE; [ $mode = proxy ] && prof=$T/proxy.sb
			/usr/bin/timeout 300 "$SBRUN" "$prof" "$pb" client $mode "$port" "$conns" $((mib * 1024 * 1024)) 3 \
				> "$T/proxy.out" 2> "$T/proxy.err" || { ok=0; break 2; }
			sed "s/^/$mode /" "$T/proxy.out" >> "$R/proxy.txt"
		done
	done
	# CPU per byte: one connection, 3 downloads of $mib MiB per mode; the
	# tree's user+system time (sbrun, its proxy, the client: bash's `time`
	# counts the reaped tree), the client's own, the server children's
	local cpu_mode
	TIMEFORMAT='%3U %3S'
	for cpu_mode in direct proxy; do
		[ $ok = 1 ] || break
		prof=$PROFILE; [ $cpu_mode = proxy ] && prof=$T/proxy.sb
		: > "$T/proxy.port.cpu"
		{ time /usr/bin/timeout 300 "$SBRUN" "$prof" "$pb" client $cpu_mode "$port" 1 $((mib * 1024 * 1024)) 3 \
			> "$T/proxy.out" 2> "$T/proxy.err"; } 2> "$T/proxy.time" || { ok=0; mode=$cpu_mode; break; }
		sleep 0.1   # the last server child appends its figure as it exits
		printf '%s tree_ms %s\n' $cpu_mode "$(awk '{ printf "%.0f", ($1 + $2) * 1000 }' "$T/proxy.time")" >> "$R/proxy.txt"
		printf '%s client_ms %s\n' $cpu_mode "$(awk '$1 == "cpu_ms" { print $2 }' "$T/proxy.out")" >> "$R/proxy.txt"
		printf '%s server_ms %s\n' $cpu_mode "$(awk '{ s += $2 } END { printf "%.0f", s }' "$T/proxy.port.cpu")" >> "$R/proxy.txt"
		printf '%s cpu_mib_s %s\n' $cpu_mode "$(awk '$1 == "mib_s" { print $2 }' "$T/proxy.out")" >> "$R/proxy.txt"
	done
	unset TIMEFORMAT
	kill "$spid" 2> /dev/null; wait "$spid" 2> /dev/null
	if [ $ok != 1 ]; then
		na "proxy" "the $mode run failed: $(grep -v warning "$T/proxy.err" | head -1 | cut -c1-100)"; md ""; return
	fi
	# med MODE FIELD COLUMN -> median over the rounds
	med() { awk -v m="$1" -v f="$2" -v c="$3" '$1 == m && $2 == f { print $c }' "$R/proxy.txt" | sort -g |
		awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
	local ds ps dt pt d90 p90
	ds=$(med direct setup_us 3); ps=$(med proxy setup_us 3)
	d90=$(med direct setup_us 4); p90=$(med proxy setup_us 4)
	dt=$(med direct mib_s 3); pt=$(med proxy mib_s 3)
	local added; added=$(calc %.3f "($ps - $ds) / 1000")
	row "set-up, median µs" "$ds" "$ps" "+$added ms" "$(verdict "$added" '<' 1 ms)"
	row "set-up, 90th percentile µs" "$d90" "$p90" "+$(calc %.3f "($p90 - $d90) / 1000") ms" "none"
	local tr; tr=$(calc %.3f "$pt / $dt")
	row "throughput, MiB/s" "$dt" "$pt" "$tr" "$(verdict "$tr" '>' 0.90 '')"
	# CPU seconds per GiB moved (the CPU run: 3 x $mib MiB): every process,
	# and the proxy's own share (the proxy tree less its client, less what
	# sbrun alone costs in the direct tree)
	val() { awk -v m="$1" -v f="$2" '$1 == m && $2 == f { print $3 }' "$R/proxy.txt" | tail -1; }
	local gib dtot ptot pproxy
	gib=$(calc %.6f "3 * $mib / 1024")
	dtot=$(calc %.3f "($(val direct tree_ms) + $(val direct server_ms)) / 1000 / $gib")
	ptot=$(calc %.3f "($(val proxy tree_ms) + $(val proxy server_ms)) / 1000 / $gib")
	pproxy=$(calc %.3f "(($(val proxy tree_ms) - $(val proxy client_ms)) - ($(val direct tree_ms) - $(val direct client_ms))) / 1000 / $gib")
	row "CPU s per GiB, client + server + proxy" "$dtot" "$ptot" "$(calc %.2fx "$ptot / $dtot")" "none"
	row "CPU s per GiB, the proxy process alone" "0" "$pproxy" "" "none"
	row "CPU ratio, direct CPU/GiB over the proxy's (the throughput ratio where the CPUs alone limit)" "" "" "$(calc %.3f "$dtot / $ptot")" "none"
	# the same over a link limited to 1 Gbit/s each way (a veth pair, tc
	# tbf, in network namespaces of its own): the network is the limit
	local lrounds=$([ "$quick" = 1 ] && echo 1 || echo 3) lmib=$([ "$quick" = 1 ] && echo 16 || echo 64)
	if [ "$(id -u)" = 0 ] && /usr/bin/unshare -n /bin/true 2> /dev/null; then
		/usr/bin/unshare -n "$ROOT_DIR/bench/proxy_link.sh" "$B" "$POLICY" "$PROFILE" "$T" 1gbit 50 "$lmib" "$lrounds" \
			> "$R/proxy-link.txt" 2> "$T/proxy-link.err"
		if grep -q '^error' "$R/proxy-link.txt" || ! grep -q '^proxy mib_s' "$R/proxy-link.txt"; then
			na "1 Gbit/s link" "$(grep -m1 '^error' "$R/proxy-link.txt" || head -1 "$T/proxy-link.err")"
		else
			lmed() { awk -v m="$1" -v f="$2" -v c="$3" '$1 == m && $2 == f { print $c }' "$R/proxy-link.txt" | sort -g |
				awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
			local lds lps ldt lpt
			lds=$(lmed direct setup_us 3); lps=$(lmed proxy setup_us 3)
			ldt=$(lmed direct mib_s 3); lpt=$(lmed proxy mib_s 3)
			row "1 Gbit/s link: set-up, median µs" "$lds" "$lps" "+$(calc %.3f "($lps - $lds) / 1000") ms" "none"
			row "1 Gbit/s link: throughput, MiB/s" "$ldt" "$lpt" "$(calc %.3f "$lpt / $ldt")" "none"
		fi
	else
		na "1 Gbit/s link" "needs root and network namespaces (unshare -n)"
	fi
	md ""
	md "Per round: \`$(realpath --relative-to="$ROOT_DIR" "$R" 2> /dev/null || echo "$R")/proxy.txt\`. The proxy splices (splice(2) through a pipe, up to"
	md "1 MiB a call), so no byte is copied through its memory; a relayed byte still crosses loopback TCP twice (server to"
	md "proxy, proxy to client) against once, so where the CPUs are the limit (loopback on $(nproc) cores), the proxy's"
	md "throughput is bounded by the CPU row's ratio, and less on a loaded host. Across a network the link is the"
	md "limit and the proxy's extra loopback hop costs CPU, not throughput (the 1 Gbit/s rows). CPU rows: one connection, 3 downloads of $mib MiB per"
	md "mode, user+system time of the sbrun tree (bash \`time\`), the client's own (\`getrusage\`) and the server's download"
	md "children's; the CPU ratio row is direct's CPU per GiB over the proxy's. The 1 Gbit/s rows: \`bench/proxy_link.sh\`, the"
	md "server in a network namespace of its own behind a veth pair shaped with \`tc tbf\` to 1 Gbit/s each way, $lrounds"
	md "round(s) of 50 set-ups and 3 downloads of $lmib MiB (\`$(realpath --relative-to="$ROOT_DIR" "$R" 2> /dev/null || echo "$R")/proxy-link.txt\`)."
	md ""
}

# ---------------------------------------------------------------- 10 gate
# The write gate (docs/linux.md, "The write gate"): the same creation-heavy
# jobs under the same policy with the gate (a write deny inside the
# workspace, decided by name at every creating call) and with
# --write-gate off (masks; the workspace top narrowed), and unsandboxed.
section_gate() {
	md "## 10. Write gate overhead (Linux)"
	md ""
	md "The default policy with its protection of persistence files (\`examples/protect/\`: the write gate on, every"
	md "creating or writing call by path goes through the supervisor, which performs it) against the same profile with"
	md "\`OMP_SANDBOX_PROTECT=none\` (no write deny inside the workspace: no gate), same run. git checkout: from an"
	md "orphan branch of one file to a commit of $GATE_FILES files in $((GATE_FILES / 50)) directories, a repository in the"
	md "workspace. npm install: \`npm install --offline\` of express@4.21.2 (its tree from a cache filled before the"
	md "run), \`--ignore-scripts\`."
	md ""
	thead "job" ">unsandboxed ms" ">no gate ms" ">gate ms" "gate spread" ">gate / no gate" ">CPU ratio (user+sys)"
	if [ "$in_ns" != 1 ]; then na "gate" "no private mount namespace"; md ""; return; fi
	local plan; plan=$("$SBRUN" --plan "$PROFILE" 2>&1)
	if ! grep -q '^# write gate: [0-9]' <<< "$plan"; then
		na "gate" "no write gate here: $(grep '^# write gate' <<< "$plan" | cut -c1-100)"; md ""; return
	fi
	local on="$SBRUN $PROFILE" off="/usr/bin/env OMP_SANDBOX_PROTECT=none $SBRUN $PROFILE"
	local repo=$WS/gategit
	rm -rf "$repo"; mkdir -p "$repo"
	(cd "$repo" && git init -q && seq 0 $((GATE_FILES / 50 - 1)) | sed 's/^/d/' | xargs mkdir -p &&
		seq 0 $((GATE_FILES - 1)) | awk '{ printf "d%d/f%d\n", $1 % '$((GATE_FILES / 50))', $1 }' |
		while read -r f; do echo "$f" > "$f"; done &&
		git add -A && git -c user.name=b -c user.email=b@b.invalid commit -qm full && git branch -q full &&
		git checkout -q --orphan empty && git rm -rqf . && echo e > e && git add e &&
		git -c user.name=b -c user.email=b@b.invalid commit -qm empty) || log "could not make the git repository"
	if hf gate-git "$WRUNS" 1 --prepare "/usr/bin/git -C $repo checkout -q -f empty" -- \
		"plain=/usr/bin/git -C $repo checkout -q full" "off=$off /usr/bin/git -C $repo checkout -q full" \
		"on=$on /usr/bin/git -C $repo checkout -q full"; then
		grow gate-git "git checkout ($GATE_FILES files)"
	else
		na "git checkout" "hyperfine failed (results/gate-git.log)"
	fi
	local npm; npm=$(command -v npm)
	local job=$WS/gatenpm cache=$WS/gatenpm-cache
	rm -rf "$job" "$cache"; mkdir -p "$job"
	if [ -z "$npm" ]; then
		na "npm install" "npm is not installed"
	elif ! (cd "$job" && timeout 300 "$npm" install --cache "$cache" --no-audit --no-fund --ignore-scripts \
		express@4.21.2 > "$T/gate-npm.log" 2>&1); then
		na "npm install" "the registry is unreachable or the install failed ($(tail -1 "$T/gate-npm.log" | cut -c1-80))"
	else
		local cmd="$npm --prefix $job install --offline --cache $cache --no-audit --no-fund --ignore-scripts express@4.21.2"
		if hf gate-npm "$WRUNS" 1 --prepare "/bin/rm -rf $job/node_modules $job/package-lock.json" -- \
			"plain=$cmd" "off=$off $cmd" "on=$on $cmd"; then
			grow gate-npm "npm install ($(find "$job/node_modules" -type f | wc -l) files)"
		else
			na "npm install" "hyperfine failed (results/gate-npm.log)"
		fi
	fi
	md ""
}
# grow NAME LABEL: one row of the gate table
grow() {
	local p f n
	p=$(hfv "$1" plain median); f=$(hfv "$1" off median); n=$(hfv "$1" on median)
	row "$2" "$p" "$f" "$n" "$(spread "$1" on)" "$(calc %.3f "$n / $f")" \
		"$(calc %.3f "$(cpu "$1" on) / $(cpu "$1" off)")"
}

# SB_BENCH_ONLY="plan workload" runs a subset (for working on one section).
for s in ${SB_BENCH_ONLY:-compile launch plan workload eval orig peers trace proxy gate}; do
	"section_$s"
done

md "## Host load"
md ""
md "Load average at start $load_start, at end $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15 min; nproc $(nproc))."
md "A load above nproc means other jobs shared the CPUs during the run: compare ratios, not absolute times."
md ""
if [ -f "$ROOT_DIR/bench/analysis.md" ] && [ "$quick" != 1 ]; then
	cat "$ROOT_DIR/bench/analysis.md" >> "$REPORT"
fi
md "Raw results (hyperfine JSON and CSV) are in \`$(realpath --relative-to="$ROOT_DIR" "$R" 2> /dev/null || echo "$R")/\` after a run."
mkdir -p "$(dirname "$out")"
cp "$REPORT" "$out" || exit 1
log "wrote $out"
