#!/usr/bin/env bash
# SBPL of the wild: Chromium's common.sb, renderer.sb and gpu.sb
# (tests/sbpl/chromium/, unmodified) read through the evaluator of
# compiler/sbpl/sbpl_scheme.c.  Checks, against the table
# tests/sbpl/chromium/decisions.tsv: sbc explain's decision (exit status) on
# paths the profiles name and paths they do not, with realistic params; the
# deciding rule's line, and for rules a procedure made, the definition and
# the call site.  Then: sbc diff of a profile against itself is quiet (0)
# and against a copy with one rule changed names that rule; unknown
# procedures are located warnings and make answers unknown; runaway
# programs are located errors, not hangs; and the profile sbrun re-emits
# for sandbox-exec (--print-launch) decides every row as the original.
# Prints PASS/FAIL/SKIP lines.
set -uo pipefail
cd "$(dirname "$0")/.."
B=${B:-build}
ROOT=$PWD
SBC=$ROOT/$B/bin/sbc
SBRUN=$ROOT/$B/bin/sbrun
DIR=$ROOT/tests/sbpl/chromium
TABLE=$DIR/decisions.tsv
if [ ! -x "$SBC" ]; then
	echo "SKIP: $SBC not built (run make first)"
	exit 77
fi
fails=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
tmp=$(mktemp -d /tmp/sbpl-wild.XXXXXX) || exit 1
trap '[ -n "${KEEP:-}" ] || rm -rf -- "$tmp"' EXIT

# Realistic params, as sandbox/policy/mac/sandbox_mac.mm passes them for a
# component build of Chromium on macOS 14.2 (values invented, shapes not).
PARAMS=(
	-D BUNDLE_PATH=/Applications/Chromium.app
	-D BUNDLE_ID=org.chromium.Chromium
	-D BROWSER_PID=4242
	-D CURRENT_PID=4343
	-D COMPONENT_PATH=/Users/alice/chromium/src/out/Default
	-D DISABLE_SANDBOX_DENIAL_LOGGING=FALSE
	-D ENABLE_LOGGING=FALSE
	-D EXECUTABLE_PATH=/Applications/Chromium.app/Contents/MacOS/Chromium
	-D USER_HOMEDIR_AS_LITERAL=/Users/alice
	"-D" "LOG_FILE_PATH=/Users/alice/Library/Application Support/Chromium/chrome_debug.log"
	-D DARWIN_USER_CACHE_DIR=/private/var/folders/xy/abc123/C
	-D DARWIN_USER_DIR=/private/var/folders/xy/abc123/0
	-D DARWIN_USER_TEMP_DIR=/private/var/folders/xy/abc123/T
	-D FILTER_SYSCALLS=TRUE
	-D FILTER_SYSCALLS_DEBUG=FALSE
	-D HELPER_BUNDLE_ID=org.chromium.Chromium.helper
)
os_for() { [ "$1" = common-1012 ] && echo 1012 || echo 1402; }

# The sets: Chromium compiles common.sb and the process's profile as one
# program, so they are concatenated; offsets map FILE:LINE to it.
declare -A INPUT OFFSET
lines() { wc -l <"$1"; }
INPUT[common]=$DIR/common.sb
INPUT[common-1012]=$DIR/common.sb
cat "$DIR/common.sb" "$DIR/renderer.sb" >"$tmp/renderer.sb"
INPUT[renderer]=$tmp/renderer.sb
cat "$DIR/common.sb" "$DIR/gpu.sb" >"$tmp/gpu.sb"
INPUT[gpu]=$tmp/gpu.sb
cat "$DIR/common.sb" "$DIR/gpu-stub.sb" "$DIR/gpu.sb" >"$tmp/gpu-stub.sb"
INPUT[gpu-stub]=$tmp/gpu-stub.sb
c=$(lines "$DIR/common.sb")
s=$(lines "$DIR/gpu-stub.sb")
declare -A OFF=([common]=0 [renderer]=$c [gpu]=$c [gpu-stub]=$c)
# gpu.sb comes after the stub in the gpu-stub set
line_in() { # SET FILE:LINE -> line in the set's input
	local set=$1 file=${2%%:*} line=${2##*:}
	local off=${OFF[$file]}
	[ "$set" = gpu-stub ] && [ "$file" = gpu ] && off=$((c + s))
	echo $((off + line))
}

status_of() { case $1 in allow) echo 0 ;; deny) echo 1 ;; unknown) echo 2 ;; *) echo 9 ;; esac; }

# ---- the table ----
rows=0
declare -a ROWS
while IFS=$'\t' read -r set op path vnode want at called; do
	case $set in ''|'#'*) continue ;; esac
	ROWS+=("$set"$'\t'"$op"$'\t'"$path"$'\t'"$vnode"$'\t'"$want")
	rows=$((rows + 1))
	input=${INPUT[$set]}
	args=(explain "$input" --op "$op" --path "$path" "${PARAMS[@]}" -D "OS_VERSION=$(os_for "$set")")
	[ "$vnode" != - ] && args+=(--vnode "$vnode")
	out=$(timeout 20 "$SBC" "${args[@]}" 2>"$tmp/err")
	rc=$?
	label="$set: $op $path${vnode/#-/} -> $want"
	[ "$vnode" != - ] && label="$set: $op $path ($vnode) -> $want"
	if [ "$rc" -ne "$(status_of "$want")" ]; then
		fail "$label: exit $rc: $(head -3 <<<"$out") $(head -2 "$tmp/err")"
		continue
	fi
	if [ "$at" != - ]; then
		l=$(line_in "$set" "$at")
		if ! grep -q "^  at: $input:$l:" <<<"$out"; then
			fail "$label: deciding rule not at $at (line $l): $out"
			continue
		fi
	fi
	if [ "$called" != - ]; then
		l=$(line_in "$set" "$called")
		if ! grep -q "(in the definition of " <<<"$out" || ! grep -q "^  called at: $input:$l:" <<<"$out"; then
			fail "$label: call site $called (line $l) not named: $out"
			continue
		fi
	elif grep -q "^  called at:" <<<"$out"; then
		fail "$label: a call site named for a rule written at top level: $out"
		continue
	fi
	what=$want
	[ "$at" != - ] && what+=" by the rule at $at"
	[ "$called" != - ] && what+=", called at $called"
	pass "$set: $op ${path}${vnode:+ }${vnode/#-/}: $what"
done <"$TABLE"
[ "$rows" -ge 40 ] || fail "the table has only $rows rows"

# Every file reads without an error (warnings are fine).
for set in common renderer gpu gpu-stub; do
	"$SBC" explain "${INPUT[$set]}" --op read --path /x "${PARAMS[@]}" -D OS_VERSION=1402 >/dev/null 2>"$tmp/err"
	rc=$?
	if [ "$rc" -le 2 ] && ! grep -q "error:" "$tmp/err"; then
		pass "$set reads without error"
	else
		fail "$set does not read (exit $rc): $(head -5 "$tmp/err")"
	fi
done
# Without any -D: still no error; what depends on unbound params is unknown.
"$SBC" explain "$DIR/common.sb" --op read --path /usr/lib/libc.dylib >/dev/null 2>"$tmp/err"
rc1=$?
"$SBC" explain "$DIR/common.sb" --op read --path /Users/alice/x >/dev/null 2>>"$tmp/err"
rc2=$?
if [ "$rc1" = 0 ] && [ "$rc2" = 2 ] && ! grep -q "error:" "$tmp/err"; then
	pass "common.sb without params: /usr/lib allowed, a home path unknown (unbound USER_HOMEDIR_AS_LITERAL)"
else
	fail "common.sb without params: exits $rc1 $rc2: $(head -3 "$tmp/err")"
fi

# The JSON form names the definition and the call too.
if command -v python3 >/dev/null; then
	out=$("$SBC" explain "$tmp/renderer.sb" --op read --path /Users/alice/Library/Fonts/Inter.ttf "${PARAMS[@]}" -D OS_VERSION=1402 --format=json 2>/dev/null)
	call=$(line_in renderer renderer:42)
	if python3 -c 'import json,sys; d=json.loads(sys.argv[1]); r=d["rule"]
assert d["decision"]=="allow" and r["at"]["line"]==55 and r["call"]["name"]=="allow-font-access" and r["call"]["at"]["line"]==int(sys.argv[2]), d' "$out" "$call"; then
		pass "explain --format=json gives the definition line and the call (name, line)"
	else
		fail "explain json call: $out"
	fi
else
	echo "SKIP: python3 missing: the JSON form is not checked"
fi

# ---- unknown procedures: located warnings, unknown answers ----
out=$("$SBC" explain "$tmp/gpu.sb" --op read --path /Library/Video/Plug-Ins/x "${PARAMS[@]}" -D OS_VERSION=1402 2>"$tmp/err")
l138=$(line_in gpu gpu:138)
l139=$(line_in gpu gpu:139)
if grep -q "gpu.sb:$l138:10: warning: 'maybe-disable-metal-shader-cache' is neither defined" "$tmp/err" &&
	grep -q "gpu.sb:$l139:3: warning: 'maybe-allow-metal-shader-cache-access' is neither defined" "$tmp/err" &&
	grep -q "^reason: .*maybe-allow-metal-shader-cache-access.*gpu.sb:$l139:3" <<<"$out"; then
	pass "gpu.sb: undefined procedures are located warnings and the unknown answer names one"
else
	fail "gpu.sb unknown procedures: $out $(cat "$tmp/err")"
fi

# ---- sbc diff ----
for set in common renderer gpu-stub; do
	"$SBC" diff "${INPUT[$set]}" "${INPUT[$set]}" "${PARAMS[@]}" -D OS_VERSION=1402 >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" = 0 ] && pass "diff: $set against itself exits 0" || fail "diff $set itself: exit $rc $(head -5 "$tmp/out")"
done
# one top-level rule widened
sed 's#(subpath "/usr/share/icu")#(subpath "/usr/share")#' "$DIR/common.sb" >"$tmp/wider.sb"
l=$(grep -n '(subpath "/usr/share")' "$tmp/wider.sb" | cut -d: -f1)
"$SBC" diff "$DIR/common.sb" "$tmp/wider.sb" "${PARAMS[@]}" -D OS_VERSION=1402 >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" = 2 ] && grep -q "new: allow by (allow file-read-data (subpath \"/usr/share\")) at $tmp/wider.sb:$((l - 1))" "$tmp/out" &&
	grep -q "newly allowed: file-read-data" "$tmp/out"; then
	pass "diff: a widened rule in common.sb is named with its line (exit 2)"
else
	fail "diff widened: exit $rc: $(head -8 "$tmp/out") $(head -3 "$tmp/err")"
fi
# one rule inside a procedure narrowed: named with the procedure's call site
sed '/(define (allow-font-access)/,/^$/ s#(subpath "/System/Library/Fonts")#(subpath "/System/Library/Fonts/Supplemental")#' \
	"$DIR/common.sb" >"$tmp/narrow-common.sb"
cat "$tmp/narrow-common.sb" "$DIR/renderer.sb" >"$tmp/narrow.sb"
"$SBC" diff "$tmp/renderer.sb" "$tmp/narrow.sb" "${PARAMS[@]}" -D OS_VERSION=1402 >"$tmp/out" 2>"$tmp/err"
rc=$?
call=$(line_in renderer renderer:42)
if [ "$rc" -ne 0 ] && grep -q "old: allow by (allow file-read-data (subpath \"/Library/Fonts\") (subpath \"/System/Library/Fonts\").* at $tmp/renderer.sb:55 (in allow-font-access, called at $tmp/renderer.sb:$call)" "$tmp/out"; then
	pass "diff: a narrowed rule inside allow-font-access is named with its definition and call lines"
else
	fail "diff narrowed: exit $rc: $(head -8 "$tmp/out") $(head -3 "$tmp/err")"
fi

# ---- bounded evaluation: runaway programs are located errors ----
printf '(version 1)\n(define (f x) (f (+ x 1)))\n(f 0)\n' >"$tmp/loop.sb"
printf '(version 1)\n(define (g n) (if (= n 0) 0 (+ (g (- n 1)) (g (- n 1)))))\n(g 40)\n' >"$tmp/steps.sb"
printf '(version 1)\n(define (h s) (h (string-append s s)))\n(h "ab")\n' >"$tmp/bytes.sb"
for case in "loop:2:nested deeper" "steps:2:more than" "bytes:2:MiB"; do
	name=${case%%:*} want=${case#*:}
	want_loc=${want%:*}; want_msg=${want##*:}
	start=$(date +%s)
	timeout 20 "$SBC" explain "$tmp/$name.sb" --op read --path /x >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" = 3 ] && grep -q "$name.sb:$want_loc.*error: .*$want_msg.*\[sbpl-eval\]" "$tmp/err"; then
		pass "runaway program ($name) is a located error (exit 3) in $(( $(date +%s) - start )) s"
	else
		fail "runaway $name: exit $rc: $(head -3 "$tmp/err")"
	fi
done

# data_free FILE: FILE without its top-level `(define sbx-NAME ...)` forms,
# counted by parentheses outside string literals.
data_free() {
	/usr/bin/awk '
	function depth_of(line,   i, c, d, instr, esc) {
		d = 0; instr = 0; esc = 0
		for (i = 1; i <= length(line); i++) {
			c = substr(line, i, 1)
			if (instr) { if (esc) esc = 0; else if (c == "\\") esc = 1; else if (c == "\"") instr = 0; continue }
			if (c == "\"") instr = 1
			else if (c == ";") break
			else if (c == "(") d++
			else if (c == ")") d--
		}
		return d
	}
	skip == 0 && /^\(define sbx-/ { skip = depth_of($0); next }
	skip > 0 { skip += depth_of($0); next }
	{ print }' "$1"
}

# ---- sbrun re-emits what it expands without changing decisions ----
if [ ! -x "$SBRUN" ]; then
	echo "SKIP: $SBRUN not built: re-emission not checked"
else
	agree=0 differ=0 skipped=0
	for set in common renderer gpu-stub; do
		sbrun_params=()
		for ((i = 0; i < ${#PARAMS[@]}; i += 2)); do sbrun_params+=(-D "${PARAMS[i + 1]}"); done
		# a throwaway home (the launcher checks HOME against getpwuid)
		"$ROOT/tests/lib/fakehome.sh" -- /usr/bin/env -i PATH=/usr/bin:/bin HOME=/home/tester TERM=dumb \
			/bin/bash -c 'mkdir -p /home/tester/proj && cd /home/tester/proj && exec "$@"' sh \
			"$SBRUN" "${sbrun_params[@]}" -D OS_VERSION=1402 --print-launch "${INPUT[$set]}" \
			>"$tmp/$set.launch.sb" 2>"$tmp/err"
		rc=$?
		if [ "$rc" = 77 ]; then
			skipped=1
			break
		fi
		if [ "$rc" != 0 ]; then
			fail "sbrun --print-launch $set: exit $rc: $(head -3 "$tmp/err")"
			continue
		fi
		# the profile's data form (`(define sbx-... DATA)`: the source, the
		# launch params, the origins; docs/architecture.md) is data, not a
		# program: left out, the rest must hold no Scheme
		data_free "$tmp/$set.launch.sb" >"$tmp/$set.program.sb"
		if ! grep -q "^(define sbx-launch-params" "$tmp/$set.launch.sb"; then
			fail "sbrun --print-launch $set: no sbx-launch-params data (what sbc explain binds it with)"
			continue
		fi
		if grep -q "(define\|(if \|(when \|param-true\|user-homedir-path" "$tmp/$set.program.sb"; then
			fail "sbrun --print-launch $set still holds Scheme: $(grep -m3 "(define\|(if \|(when " "$tmp/$set.program.sb")"
			continue
		fi
		# every param the text uses is in the -D list sandbox-exec gets
		missing=""
		for name in $(grep -o '(param "[^"]*")' "$tmp/$set.launch.sb" | sed 's/(param "\(.*\)")/\1/' | sort -u); do
			grep -q "^;;   -D $name=" "$tmp/$set.launch.sb" || missing+="$name "
		done
		if [ -n "$missing" ]; then
			fail "sbrun --print-launch $set uses params it does not pass: $missing"
			continue
		fi
		for row in "${ROWS[@]}"; do
			IFS=$'\t' read -r rset op path vnode want <<<"$row"
			[ "$rset" = "$set" ] || continue
			vargs=()
			[ "$vnode" != - ] && vargs=(--vnode "$vnode")
			"$SBC" explain "${INPUT[$set]}" --op "$op" --path "$path" "${vargs[@]}" "${PARAMS[@]}" -D OS_VERSION=1402 >/dev/null 2>&1
			a=$?
			"$SBC" explain "$tmp/$set.launch.sb" --op "$op" --path "$path" "${vargs[@]}" >/dev/null 2>&1
			b=$?
			if [ "$a" = "$b" ]; then agree=$((agree + 1)); else
				differ=$((differ + 1))
				fail "re-emitted $set decides $op $path differently: $a before, $b after"
			fi
		done
	done
	if [ "$skipped" = 1 ]; then
		echo "SKIP: re-emission not checked: $(cat "$tmp/err")"
	elif [ "$agree" -gt 0 ] && [ "$differ" = 0 ]; then
		pass "sbrun --print-launch re-emits common/renderer/gpu-stub flat, and all $agree table decisions agree before and after"
	fi
fi

[ "$fails" -eq 0 ] || exit 1
exit 0
