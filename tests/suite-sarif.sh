#!/usr/bin/env bash
# suite-sarif.sh: `sbc --check --format=sarif|json` writes its report to
# stdout (or -o FILE) and the text form to stderr; every SARIF report is
# validated against the official SARIF 2.1.0 JSON schema
# (tests/sarif/sarif-schema-2.1.0.json, see tests/sarif/README.md) by
# python3-jsonschema: clean files, warnings, errors with notes, several
# files, and file names with spaces, quotes, '%', '#', a newline and bytes
# that are not UTF-8.  Exit 0 pass, 77 skip, 1 fail.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-build}
case $B in /*) ;; *) B=$root/$B ;; esac
SBC=$B/bin/sbc
[ -x "$SBC" ] || { echo "SKIP: $SBC not built"; exit 77; }
PY=/usr/bin/python3
SCHEMA=$root/tests/sarif/sarif-schema-2.1.0.json
VALIDATE=$root/tests/sarif/validate.py
[ -x "$PY" ] || { echo "SKIP: $PY missing (scripts/deps.sh installs it)"; exit 77; }
probe=$("$PY" "$VALIDATE" "$SCHEMA" 2>&1)
[ $? = 77 ] && { echo "$probe"; exit 77; }

T=$(mktemp -d /tmp/sbx-suite-sarif.XXXXXX)
trap 'rm -rf "$T"' EXIT
npass=0 nfail=0
pass() { echo "PASS: $*"; npass=$((npass + 1)); }
fail() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
valid() { # DESC FILE: the report validates against the schema
	local why
	if why=$("$PY" "$VALIDATE" "$SCHEMA" "$2" 2>&1); then pass "$1"; else fail "$1: ${why:0:600}"; fi
}
jq_py() { # EXPR FILE: evaluate a Python expression on the parsed report `d`
	"$PY" -c 'import json,sys; d=json.load(open(sys.argv[2],encoding="utf-8")); sys.exit(0 if eval(sys.argv[1]) else 1)' "$1" "$2"
}

# The validator bites: a report missing its version is rejected.
printf '{"runs": []}\n' > "$T/broken.sarif"
if ! "$PY" "$VALIDATE" "$SCHEMA" "$T/broken.sarif" > /dev/null 2>&1; then
	pass "the schema rejects a document without \"version\""
else
	fail "the schema accepted a document without \"version\""
fi
printf '{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x", "informationUri": "not a uri"}}}]}\n' > "$T/baduri.sarif"
if ! "$PY" "$VALIDATE" "$SCHEMA" "$T/baduri.sarif" > /dev/null 2>&1; then
	pass "the format checker rejects an informationUri that is not a URI"
else
	fail "the format checker accepted informationUri \"not a uri\""
fi

# ---- a clean file ----
"$SBC" --check --format=sarif "$root/examples/omp.sbx" > "$T/clean.sarif" 2> "$T/clean.err"
rc=$?
[ $rc = 0 ] && [ ! -s "$T/clean.err" ] && pass "clean file: exit 0, nothing on stderr" ||
	fail "clean file: exit $rc, stderr: $(head -c 300 "$T/clean.err")"
valid "clean file: valid SARIF 2.1.0" "$T/clean.sarif"
jq_py 'd["runs"][0]["results"] == [] and d["runs"][0]["tool"]["driver"]["informationUri"].startswith("https://") and "example.invalid" not in d["runs"][0]["tool"]["driver"]["informationUri"]' "$T/clean.sarif" &&
	pass "clean file: no results; informationUri is the project's real home" ||
	fail "clean file: $(head -c 400 "$T/clean.sarif")"

# ---- warnings ----
printf 'default allow;\ndeny write;\ndeny read home;\nallow read /usr/lib;\nallow read /usr/lib;\n' > "$T/warn.sbx"
"$SBC" --check --format=sarif "$T/warn.sbx" > "$T/warn.sarif" 2> "$T/warn.err"
rc=$?
[ $rc = 0 ] && grep -q "warning:" "$T/warn.err" && pass "warnings: exit 0, the text form on stderr" ||
	fail "warnings: exit $rc, stderr: $(head -c 300 "$T/warn.err")"
valid "warnings: valid SARIF 2.1.0" "$T/warn.sarif"
jq_py 'len(d["runs"][0]["results"]) >= 1 and all(r["level"] == "warning" for r in d["runs"][0]["results"])' "$T/warn.sarif" &&
	pass "warnings: results at level warning" || fail "warnings: $(head -c 400 "$T/warn.sarif")"
"$SBC" --check -Werror --format=sarif "$T/warn.sbx" > "$T/werror.sarif" 2> /dev/null
rc=$?
[ $rc = 1 ] && pass "-Werror: exit 1" || fail "-Werror: exit $rc"
valid "-Werror: valid SARIF 2.1.0" "$T/werror.sarif"

# ---- errors, with notes as related locations, over several files ----
"$SBC" --check --format=sarif "$root/tests/golden/fail/many-errors.sbx" "$root/examples/omp.sbx" "$T/warn.sbx" \
	> "$T/errors.sarif" 2> "$T/errors.err"
rc=$?
[ $rc = 1 ] && grep -q "error:" "$T/errors.err" && pass "errors: exit 1, the text form on stderr" ||
	fail "errors: exit $rc"
valid "errors (three files): valid SARIF 2.1.0" "$T/errors.sarif"
jq_py 'any(r["level"] == "error" for r in d["runs"][0]["results"]) and any(r["level"] == "warning" for r in d["runs"][0]["results"])' "$T/errors.sarif" &&
	pass "errors: errors and warnings of every file in one run" || fail "errors: $(head -c 400 "$T/errors.sarif")"
notes=
for f in "$root"/tests/golden/check/*.sbx; do
	"$SBC" --check --format=sarif "$f" > "$T/n.sarif" 2> /dev/null
	if jq_py 'any("relatedLocations" in r for r in d["runs"][0]["results"])' "$T/n.sarif"; then notes=$f; break; fi
done
if [ -n "$notes" ]; then
	valid "a result with related locations (notes; $(basename "$notes")): valid" "$T/n.sarif"
else
	fail "no check golden gives a result with notes (related locations)"
fi

# ---- unusual bytes in file names ----
names=("with space.sbx" "quote\"and'apos.sbx" "100%#frag?.sbx" $'new\nline.sbx' $'latin1-\xe9\xff.sbx' "ünïcode.sbx")
i=0
for n in "${names[@]}"; do
	d="$T/dir $i"
	mkdir -p "$d"
	printf 'default allow;\ndeny write;\ndeny read home;\nallow read /usr/lib;\nallow read /usr/lib;\nraed x;\n' > "$d/$n"
	"$SBC" --check --format=sarif "$d/$n" > "$T/u$i.sarif" 2> /dev/null
	rc=$?
	label=$(printf '%q' "$n")
	[ $rc = 1 ] || fail "name $label: exit $rc, want 1"
	valid "name $label: valid SARIF 2.1.0, the URI percent-encoded" "$T/u$i.sarif"
	# relative to the current directory, too
	(cd "$d" && "$SBC" --check --format=sarif "./$n" > "$T/r$i.sarif" 2> /dev/null)
	valid "name $label given relative: valid SARIF 2.1.0" "$T/r$i.sarif"
	i=$((i + 1))
done
jq_py 'd["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith("/dir%200/with%20space.sbx") and d["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].startswith("file:///")' "$T/u0.sarif" &&
	pass "an absolute path becomes a file: URI, a space %20" || fail "uri: $(head -c 600 "$T/u0.sarif")"

# ---- -o FILE and the JSON form ----
rm -f "$T/out.sarif"
out=$("$SBC" --check --format=sarif -o "$T/out.sarif" "$T/warn.sbx" 2> "$T/o.err")
[ -z "$out" ] && [ -s "$T/out.sarif" ] && grep -q warning: "$T/o.err" &&
	pass "-o FILE: the report in FILE, nothing on stdout, the text on stderr" || fail "-o FILE: stdout '$out'"
valid "-o FILE: valid SARIF 2.1.0" "$T/out.sarif"
"$SBC" --check --format=sarif -o /nonexistent-dir/x.sarif "$T/warn.sbx" > /dev/null 2> "$T/o.err"
rc=$?
[ $rc = 1 ] && grep -q "cannot write '/nonexistent-dir/x.sarif'" "$T/o.err" &&
	pass "-o into a missing directory: exit 1, said so" || fail "-o missing dir: exit $rc"
"$SBC" --check --format=json "$root/tests/golden/fail/many-errors.sbx" > "$T/j.json" 2> "$T/j.err"
rc=$?
[ $rc = 1 ] && jq_py 'isinstance(d, list) and len(d) > 0 and all("severity" in r for r in d)' "$T/j.json" && grep -q "error:" "$T/j.err" &&
	pass "--format=json: the report on stdout, the text on stderr" || fail "--format=json: exit $rc"
"$SBC" --check "$T/warn.sbx" -o "$T/x.sb" > /dev/null 2>&1
[ $? = 2 ] && [ ! -e "$T/x.sb" ] && pass "--check -o in text form is still a usage error (2)" ||
	fail "--check -o text form"

echo "sarif: $npass passed, $nfail failed"
[ $nfail = 0 ]
