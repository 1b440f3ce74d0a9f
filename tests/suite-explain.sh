#!/usr/bin/env bash
# sbc explain / sbc diff on the example policy: the original wrapper's key
# decisions name their policy line, a widening is flagged (exit 2) and a
# reordering-only change is not (exit 0).  Prints PASS/FAIL/SKIP lines.
set -uo pipefail
cd "$(dirname "$0")/.."
B=${B:-build}
SBC=$B/bin/sbc
POLICY=examples/omp.sbx
if [ ! -x "$SBC" ] || [ ! -f "$POLICY" ]; then
	echo "SKIP: $SBC or $POLICY missing (run make first)"
	exit 77
fi
fails=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

tmp=$(mktemp -d /tmp/sbc-explain-suite.XXXXXX) || exit 1
trap 'rm -rf -- "$tmp"' EXIT

line_of() { grep -n -- "$1" "$POLICY" | head -1 | cut -d: -f1; }
ws_line=$(line_of '^allow write workspace')
home_deny_line=$(line_of '^deny read home')
stat_line=$(line_of '^allow stat-only exactly home')
if [ -z "$ws_line" ] || [ -z "$home_deny_line" ] || [ -z "$stat_line" ]; then
	echo "SKIP: $POLICY no longer has the seed rules this suite looks for"
	exit 77
fi

# explain INPUT OP PATH WANT_STATUS WANT_LINE LABEL
explain() {
	local input=$1 op=$2 path=$3 want=$4 line=$5 label=$6 out rc
	out=$("$SBC" explain --sample "$input" --op "$op" --path "$path" 2>"$tmp/err")
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		fail "$label: exit $rc, want $want: $out $(cat "$tmp/err")"
	elif ! grep -q "policy: omp.sbx:$line\$" <<<"$out"; then
		fail "$label: policy line omp.sbx:$line not named: $out"
	else
		pass "$label names omp.sbx:$line"
	fi
}

# edited copies of the policy live in $tmp: its presets are included from there
ln -s "$PWD/examples/tools" "$tmp/tools"
ln -s "$PWD/examples/protect" "$tmp/protect"
"$SBC" -o "$tmp/omp.sb" "$POLICY" || { fail "sbc cannot compile $POLICY"; exit 1; }
for input in "$POLICY" "$tmp/omp.sb"; do
	kind=policy; [ "$input" = "$POLICY" ] || kind=profile
	explain "$input" write '$WORKSPACE/src/main.c' 0 "$ws_line" "$kind: workspace write allowed"
	explain "$input" read '~/.ssh/id_rsa' 1 "$home_deny_line" "$kind: ~/.ssh read denied"
	explain "$input" stat '~' 0 "$stat_line" "$kind: \$HOME stat allowed"
	explain "$input" list '~' 1 "$home_deny_line" "$kind: listing \$HOME denied"
done

# --sample: the sample params are printed; -D overrides them.  (This
# machine's bindings are tested in suite-workloads.sh, inside a throwaway home.)
out=$("$SBC" explain --sample "$POLICY" --op read --path /Users/alice/.ssh/id_rsa -D HOME=/Users/alice 2>&1)
rc=$?
if [ "$rc" -eq 1 ] && grep -q 'HOME=/Users/alice ' <<<"$out" && grep -q 'WORKSPACE=.*(sample)' <<<"$out"; then
	pass "explain binds -D HOME and prints the sample WORKSPACE"
else
	fail "explain -D: exit $rc: $out"
fi

# JSON output is one valid object.
out=$("$SBC" explain --sample "$POLICY" --op stat --path '~' --format=json 2>&1)
if command -v python3 >/dev/null; then
	if python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); assert d["decision"]=="allow" and d["rule"]["policy"]["line"]>0' <<<"$out"; then
		pass "explain --format=json is valid and complete"
	else
		fail "explain --format=json: $out"
	fi
else
	echo "SKIP: python3 missing, JSON not validated"
fi

# Unknown and error statuses.
"$SBC" explain "$POLICY" --op read --path relative/x >/dev/null 2>&1
rc=$?; [ "$rc" -eq 3 ] && pass "explain: relative path is an error (3)" || fail "explain relative path: exit $rc"
printf '(version 1)(allow default)(deny file-read* (extension "x"))\n' >"$tmp/opaque.sb"
"$SBC" explain "$tmp/opaque.sb" --op read --path /x >/dev/null 2>&1
rc=$?; [ "$rc" -eq 2 ] && pass "explain: an opaque filter gives unknown (2)" || fail "explain opaque: exit $rc"
printf '(version 1)\n(allow file-read*\n' >"$tmp/bad.sb"
err=$("$SBC" explain "$tmp/bad.sb" --op read --path /x 2>&1 >/dev/null)
rc=$?
if [ "$rc" -eq 3 ] && grep -q "bad.sb:2:1: error: unterminated list" <<<"$err"; then
	pass "explain: malformed profile gives a located error (3)"
else
	fail "explain malformed: exit $rc: $err"
fi

# diff: DIFF OLD NEW WANT LABEL
diffcheck() {
	local old=$1 new=$2 want=$3 label=$4 out rc
	out=$("$SBC" diff --sample "$old" "$new" 2>&1)
	rc=$?
	if [ "$rc" -eq "$want" ]; then
		pass "$label (exit $rc)"
	else
		fail "$label: exit $rc, want $want: $out"
	fi
	printf '%s\n' "$out" >"$tmp/last-diff"
}

diffcheck "$POLICY" "$POLICY" 0 "diff: a policy against itself is empty"
diffcheck "$POLICY" "$tmp/omp.sb" 0 "diff: a policy against its compiled profile is empty"

# Widening: write access to ~/Documents.
sed "s|^allow write /var/folders /dev;|allow write /var/folders /dev ~/Documents;|" "$POLICY" >"$tmp/wide.sbx"
if cmp -s "$POLICY" "$tmp/wide.sbx"; then
	fail "diff: could not make the widened policy"
else
	diffcheck "$POLICY" "$tmp/wide.sbx" 2 "diff: writing ~/Documents is a widening"
	grep -q "newly allowed" "$tmp/last-diff" && grep -q "/Users/me/Documents" "$tmp/last-diff" &&
		pass "diff names the newly allowed path" || fail "diff output: $(cat "$tmp/last-diff")"
	diffcheck "$tmp/wide.sbx" "$POLICY" 1 "diff: the reverse is narrowing only"
	if command -v python3 >/dev/null; then
		out=$("$SBC" diff --sample --format=json "$POLICY" "$tmp/wide.sbx" 2>&1)
		if python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); c=d["changes"][0]; assert d["widening"] and c["widening"] and c["new"]["policy_line"]>0 and "file-write-data" in c["operations"]' <<<"$out"; then
			pass "diff --format=json is valid and names the new rule's policy line"
		else
			fail "diff --format=json: $out"
		fi
	fi
fi

# Reordering only: the two write grants swapped, comments and blank lines changed.
awk '
	/^allow write workspace/ { a = $0; next }
	/^allow write \/var\/folders/ { print; print "# moved"; print ""; print a; next }
	/^#/ { next }
	{ print }
' "$POLICY" >"$tmp/reorder.sbx"
if cmp -s "$POLICY" "$tmp/reorder.sbx"; then
	fail "diff: could not make the reordered policy"
else
	diffcheck "$POLICY" "$tmp/reorder.sbx" 0 "diff: reordering the write grants changes nothing"
	[ -z "$(tr -d "\n" <"$tmp/last-diff")" ] && pass "diff: reordering prints nothing" || fail "diff output: $(cat "$tmp/last-diff")"
fi

# Reordering that matters: the re-allow moved before the deny it carves out of.
awk '
	/^deny read home/ { d = $0; next }
	/^allow read / { print; print d; next }
	{ print }
' "$POLICY" >"$tmp/misorder.sbx"
diffcheck "$POLICY" "$tmp/misorder.sbx" 1 "diff: moving the re-allow above the deny narrows"

"$SBC" diff "$POLICY" "$tmp/missing.sbx" >/dev/null 2>&1
rc=$?; [ "$rc" -eq 3 ] && pass "diff: a missing input is an error (3)" || fail "diff missing input: exit $rc"

[ "$fails" -eq 0 ]
