#!/usr/bin/env bash
# JSON and SARIF for arbitrary bytes (compiler/common/json.h): paths on Linux
# are bytes, and every JSON output of sbc must parse with a strict JSON
# parser (Python's json.loads on the raw bytes, which refuses invalid UTF-8)
# and keep the exact bytes in its lossless forms ("KEY_escaped", SARIF URIs).
set -uo pipefail
cd "$(dirname "$0")/.."
B=${B:-build}
SBC=$PWD/$B/bin/sbc
if [ ! -x "$SBC" ]; then
	echo "SKIP: $SBC not built"
	exit 77
fi
if ! command -v python3 > /dev/null; then
	echo "SKIP: python3 not installed (the JSON parser of these checks)"
	exit 77
fi
export NO_COLOR=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { echo "PASS: $1"; pass=$((pass + 1)); }
bad() { echo "FAIL: $1"; fail=$((fail + 1)); }

# check LABEL FILE PYTHON-EXPR: FILE parses as JSON (strictly, from bytes)
# and EXPR (over `d`, the parsed value, and `raw`, the bytes) is true.
check() {
	if python3 - "$2" "$3" <<'EOF' 2> "$tmp/py.err"; then ok "$1"; else bad "$1"; head -3 "$tmp/py.err"; fi
import json, sys, re, urllib.parse
raw = open(sys.argv[1], "rb").read()
d = json.loads(raw)          # bytes: decoded as strict UTF-8, or refused
def unescape(s):             # the lossless form: \\ and \xHH
    out = bytearray(); i = 0; b = s.encode("utf-8")
    while i < len(b):
        if b[i:i+2] == b"\\\\": out += b"\\"; i += 2
        elif b[i:i+2] == b"\\x": out.append(int(b[i+2:i+4], 16)); i += 4
        else: out.append(b[i]); i += 1
    return bytes(out)
assert eval(sys.argv[2]), sys.argv[2]
EOF
}

# A path holding every kind of trouble: a lone 0xff, an overlong '/', a
# UTF-16 surrogate, a code point above U+10FFFF, a quote, a backslash, a
# valid euro sign.
weird=$(printf '/tmp/a\xff\xc0\xafb\xed\xa0\x80c"\\d\xe2\x82\xace\xf4\x90\x80\x80')
for form in "--format=json" "--format json"; do
	# shellcheck disable=SC2086
	"$SBC" explain $form examples/omp.sbx --op read --path "$weird" > "$tmp/e.json"
	check "explain $form: valid JSON for a non-UTF-8 path, U+FFFD in path" "$tmp/e.json" \
		'"\ufffd" in d["path"] and "\u20ac" in d["path"]'
done
W=$(printf '%s' "$weird" | od -An -tx1 | tr -d ' \n')
check "explain: path_escaped gives back the exact bytes" "$tmp/e.json" \
	"unescape(d['path_escaped']) == bytes.fromhex('$W')"
check "explain: resolved_escaped too" "$tmp/e.json" \
	"unescape(d['resolved_escaped']) == b'/private' + bytes.fromhex('$W')"
"$SBC" explain --format=json examples/omp.sbx --op read --path /etc/passwd > "$tmp/plain.json"
check "explain: no _escaped member for a UTF-8 path" "$tmp/plain.json" \
	'"path_escaped" not in d and d["path"] == "/etc/passwd"'

# Diagnostics: a policy whose file name and content are not UTF-8.
mkdir -p "$tmp/p"
bad_name=$tmp/p/$(printf 'bad\xfe.sbx')
printf 'default deny;\nread "/data/caf\xe9/x";\nraed /usr;\n' > "$bad_name"
"$SBC" --check --format=json "$bad_name" > "$tmp/d.json" 2> "$tmp/d.err"
check "diagnostics JSON: valid, file with U+FFFD" "$tmp/d.json" \
	'd[0]["code"] == "syntax" and d[0]["file"].endswith("bad\ufffd.sbx")'
check "diagnostics JSON: file_escaped is lossless" "$tmp/d.json" \
	'unescape(d[0]["file_escaped"]).endswith(b"bad\xfe.sbx")'
"$SBC" --check --format=sarif "$bad_name" > "$tmp/s.json" 2> "$tmp/s.err"
check "SARIF: valid JSON, version 2.1.0" "$tmp/s.json" 'd["version"] == "2.1.0"'
check "SARIF: the artifact URI percent-encodes the bytes (lossless)" "$tmp/s.json" \
	'urllib.parse.unquote_to_bytes(d["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]).endswith(b"bad\xfe.sbx")'
# A message that quotes a non-UTF-8 word.
printf 'default deny;\nr\xe9ad /usr;\n' > "$tmp/p/msg.sbx"
"$SBC" --check --format=json "$tmp/p/msg.sbx" > "$tmp/m.json" 2> "$tmp/m.err"
check "diagnostics JSON: a message quoting invalid bytes stays valid" "$tmp/m.json" 'len(d) >= 1'

# sbc diff: probe paths from a rule with non-UTF-8 bytes.
good=$tmp/p/good.sbx
printf 'default deny;\nread "/data/caf\xe9/x";\nread /usr;\n' > "$good"
for form in "--format=json" "--format json"; do
	# shellcheck disable=SC2086
	"$SBC" diff $form examples/omp.sbx "$good" > "$tmp/f.json"
	check "diff $form: valid JSON with non-UTF-8 probe paths" "$tmp/f.json" \
		'any("caf\ufffd" in p for c in d["changes"] for p in c["paths"])'
done

echo "json: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
