#!/usr/bin/env bash
# Golden tests for sbc (run by tests/run-all.sh from the repository root):
#   tests/golden/ok/NAME.sbx    -> NAME.sb byte for byte (NAME.args: extra sbc
#                                  arguments, one per line)
#   tests/golden/fail/NAME.sbx  -> exit 1, stderr == NAME.err (diff -u), and no
#                                  output file: none created, an existing one
#                                  left unchanged, no temporary file left
#   examples/**/*.sbx           -> tests/golden/examples/DIR-NAME.sb, and
#                                  `sbc --check` accepts every example
# Helper files for includes live in subdirectories and are not run alone.
# UPDATE=1 rewrites the expected files from the current output (review the
# diff before committing it).
set -uo pipefail
cd "$(dirname "$0")/.."
B=${B:-build}
SBC=$PWD/$B/bin/sbc
G=$PWD/tests/golden
if [ ! -x "$SBC" ]; then
	echo "SKIP: $SBC not built"
	exit 77
fi
export NO_COLOR=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

ok() { echo "PASS: $1"; pass=$((pass + 1)); }
bad() { echo "FAIL: $1"; fail=$((fail + 1)); }

# args_of FILE.args -> the lines of FILE.args as array `args`
args_of() {
	args=()
	if [ -f "$1" ]; then
		mapfile -t args < "$1"
	fi
}

compare() {   # name expected actual
	if [ "${UPDATE:-0}" = 1 ]; then
		cp "$3" "$2"
	fi
	if [ -f "$2" ] && cmp -s "$2" "$3"; then
		ok "$1"
	else
		bad "$1"
		diff -u "$2" "$3" | head -40
	fi
}

for f in "$G"/ok/*.sbx; do
	name=ok/$(basename "$f" .sbx)
	args_of "${f%.sbx}.args"
	out=$tmp/out.sb
	rm -f "$out"
	if (cd "$G/ok" && "$SBC" "${args[@]}" "$(basename "$f")" -o "$out") 2> "$tmp/err"; then
		compare "$name" "${f%.sbx}.sb" "$out"
	else
		bad "$name (sbc failed)"
		cat "$tmp/err"
	fi
done

for f in "$G"/fail/*.sbx; do
	name=fail/$(basename "$f" .sbx)
	args_of "${f%.sbx}.args"
	mkdir -p "$tmp/o" && rm -rf "$tmp/o"/* "$tmp/o"/.[!.]* 2> /dev/null
	# 1: no output file is created
	(cd "$G/fail" && "$SBC" "${args[@]}" "$(basename "$f")" -o "$tmp/o/new.sb") 2> "$tmp/err"
	rc=$?
	if [ "$rc" -ne 1 ]; then
		bad "$name (exit $rc, want 1)"
		continue
	fi
	compare "$name" "${f%.sbx}.err" "$tmp/err"
	# 2: an existing output file is left as it was, and nothing else appears
	printf 'previous\n' > "$tmp/o/old.sb"
	(cd "$G/fail" && "$SBC" "${args[@]}" "$(basename "$f")" -o "$tmp/o/old.sb") 2> /dev/null
	left=$(cd "$tmp/o" && ls -A)
	if [ "$left" = "old.sb" ] && [ "$(cat "$tmp/o/old.sb")" = previous ]; then
		ok "$name leaves no output"
	else
		bad "$name leaves no output (found: $left)"
	fi
done

while IFS= read -r f; do
	rel=${f#examples/}
	name=$(echo "${rel%.sbx}" | tr / -)
	if "$SBC" "$f" -o "$tmp/ex.sb" 2> "$tmp/err"; then
		compare "examples/$name" "$G/examples/$name.sb" "$tmp/ex.sb"
	else
		bad "examples/$name (sbc failed)"
		cat "$tmp/err"
	fi
	if "$SBC" --check "$f" 2> "$tmp/err"; then
		ok "examples/$name --check"
	else
		bad "examples/$name --check"
		cat "$tmp/err"
	fi
done < <(find examples -name '*.sbx' | LC_ALL=C sort)

echo "golden: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
