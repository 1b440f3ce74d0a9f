#!/usr/bin/env bash
# Golden tests for sbc (run by tests/run-all.sh from the repository root):
#   tests/golden/ok/NAME.sbx    -> NAME.sb byte for byte (NAME.args: extra sbc
#                                  arguments, one per line)
#   tests/golden/fail/NAME.sbx  -> exit 1, stderr == NAME.err (diff -u), and no
#                                  output file: none created, an existing one
#                                  left unchanged, no temporary file left
#   examples/**/*.sbx           -> tests/golden/examples/DIR-NAME.sb, and
#                                  `sbc --check` accepts every example
#   the sbc command line: options, exit statuses, stdout output, formats
# Helper files for includes live in subdirectories and are not run alone;
# so do the tool presets and protection groups (examples/tools/*.sbx,
# examples/protect/*.sbx, included by examples/omp.sbx).
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
done < <(find examples -name '*.sbx' -not -path 'examples/tools/*' -not -path 'examples/protect/*' | LC_ALL=C sort)

# ---- the command line ----
expect_rc() {   # label want-rc cmd...
	local label=$1 want=$2
	shift 2
	"$@" > "$tmp/cli.out" 2> "$tmp/cli.err"
	local rc=$?
	if [ "$rc" -eq "$want" ]; then
		ok "cli: $label"
	else
		bad "cli: $label (exit $rc, want $want)"
		cat "$tmp/cli.err"
	fi
}
OK1=$G/ok/basic.sbx
expect_rc "--help exits 0" 0 "$SBC" --help
grep -q "^exit status" "$tmp/cli.out" && ok "cli: --help documents exit statuses" || bad "cli: --help documents exit statuses"
expect_rc "--version" 0 "$SBC" --version
grep -q "^sbc [0-9]" "$tmp/cli.out" && ok "cli: --version prints a version" || bad "cli: --version prints a version"
expect_rc "unknown option is a usage error" 2 "$SBC" --frobnicate "$OK1"
expect_rc "no policy is a usage error" 2 "$SBC"
expect_rc "two policies without --check" 2 "$SBC" "$OK1" "$OK1"
expect_rc "-D without '='" 2 "$SBC" -D HOME "$OK1"
expect_rc "-D with a newline" 2 "$SBC" -D "HOME=/a
(allow default)" "$OK1"
grep -q "control character" "$tmp/cli.err" && ok "cli: -D newline message" || bad "cli: -D newline message"
expect_rc "--format=xml" 2 "$SBC" --format=xml "$OK1"
expect_rc "stdout without -o" 0 "$SBC" "$OK1"
cmp -s "$tmp/cli.out" "$G/ok/basic.sb" && ok "cli: stdout output is the profile" || bad "cli: stdout output is the profile"
expect_rc "-o - is stdout" 0 "$SBC" "$OK1" -o -
cmp -s "$tmp/cli.out" "$G/ok/basic.sb" && ok "cli: -o - output is the profile" || bad "cli: -o - output is the profile"
expect_rc "unwritable output" 1 "$SBC" "$OK1" -o "$tmp/no/such/dir/x.sb"
grep -q "cannot write" "$tmp/cli.err" && ok "cli: unwritable output message" || bad "cli: unwritable output message"
expect_rc "--dump-ast" 0 "$SBC" --dump-ast "$OK1"
grep -q "^basic.sbx:3: allow write workspace;$" "$tmp/cli.out" && ok "cli: --dump-ast text" || bad "cli: --dump-ast text"
expect_rc "--dump-ir" 0 "$SBC" --dump-ir "$OK1"
grep -q "^0 basic.sbx:2 deny default$" "$tmp/cli.out" && ok "cli: --dump-ir text" || bad "cli: --dump-ir text"
# A profile larger than the writer's run (compiler/sbpl/emit_sbpl.c,
# STREAM_RUN): its rules pass through a temporary file, copied behind the
# header into a file, a pipe or a device alike, and no temporary is left.
bench/gen_policy.sh 3000 > "$tmp/big.sbx"
mkdir -p "$tmp/big" && rm -rf "$tmp/big"/* "$tmp/big"/.[!.]* 2> /dev/null
if "$SBC" -o "$tmp/big/p.sb" "$tmp/big.sbx" 2> /dev/null &&
	"$SBC" "$tmp/big.sbx" 2> /dev/null | cat > "$tmp/big.pipe" &&
	[ "$(stat -c %s "$tmp/big/p.sb")" -gt 262144 ] &&
	cmp -s "$tmp/big/p.sb" "$tmp/big.pipe" && [ "$(cd "$tmp/big" && ls -A)" = p.sb ]; then
	ok "cli: a large profile is the same in a file and through a pipe, nothing else left"
else
	bad "cli: a large profile is the same in a file and through a pipe, nothing else left"
fi
expect_rc "a large profile to /dev/null" 0 "$SBC" -o /dev/null "$tmp/big.sbx"
[ -c /dev/null ] && ok "cli: /dev/null is still a device" || bad "cli: /dev/null is still a device"
expect_rc "--check several files" 0 "$SBC" --check "$G/ok/basic.sbx" "$G/ok/private.sbx" examples/omp.sbx
[ ! -s "$tmp/cli.out" ] && ok "cli: --check writes nothing to stdout" || bad "cli: --check writes nothing to stdout"
expect_rc "--check with one bad file" 1 "$SBC" --check "$G/ok/basic.sbx" "$G/fail/many-errors.sbx"
expect_rc "--check -o (text form) is a usage error" 2 "$SBC" --check "$OK1" -o "$tmp/x.sb"
printf 'default allow;\ndeny write;\ndeny read home;\nread /usr/lib;\nread /usr/lib;\n' > "$tmp/warn.sbx"
expect_rc "warnings alone pass" 0 "$SBC" --check "$tmp/warn.sbx"
grep -q "warning:" "$tmp/cli.err" && ok "cli: the warning is shown" || bad "cli: the warning is shown"
expect_rc "-Werror turns warnings into failure" 1 "$SBC" --check -Werror "$tmp/warn.sbx"
expect_rc "-Werror compile writes nothing" 1 "$SBC" -Werror "$tmp/warn.sbx" -o "$tmp/warn.sb"
[ ! -e "$tmp/warn.sb" ] && ok "cli: -Werror failure leaves no file" || bad "cli: -Werror failure leaves no file"
expect_rc "--format=json" 1 "$SBC" --check --format=json "$G/fail/many-errors.sbx"
if command -v python3 > /dev/null; then
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d' "$tmp/cli.out" 2> /dev/null &&
		ok "cli: --format=json is JSON, on stdout" || bad "cli: --format=json is JSON, on stdout"
else
	echo "SKIP: cli: --format=json is JSON (no python3)"
fi
# getopt_long everywhere: "--format json" and "--format=json" are one option.
if command -v python3 > /dev/null; then
	isjson() { python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$1" 2> /dev/null; }
	for form in "--format=json" "--format json"; do
		# shellcheck disable=SC2086
		"$SBC" --check $form "$G/fail/many-errors.sbx" > "$tmp/j.out" 2> /dev/null
		isjson "$tmp/j.out" && ok "cli: sbc --check $form" || bad "cli: sbc --check $form"
		# shellcheck disable=SC2086
		"$SBC" explain $form examples/omp.sbx --op read --path /etc/passwd > "$tmp/j.out"
		isjson "$tmp/j.out" && ok "cli: sbc explain $form" || bad "cli: sbc explain $form"
		# shellcheck disable=SC2086
		"$SBC" diff $form examples/omp.sbx examples/omp-offline.sbx > "$tmp/j.out"
		isjson "$tmp/j.out" && ok "cli: sbc diff $form" || bad "cli: sbc diff $form"
	done
else
	echo "SKIP: cli: --format json forms (no python3)"
fi
expect_rc "options after the file" 0 "$SBC" "$OK1" -o "$tmp/late.sb" -D X=1
cmp -s "$tmp/late.sb" "$G/ok/basic.sb" && ok "cli: -o after the policy" || bad "cli: -o after the policy"
expect_rc "-W other than error" 2 "$SBC" -Wfoo "$OK1"
expect_rc "--format=sarif" 1 "$SBC" --check --format=sarif "$G/fail/many-errors.sbx"
grep -q '"version": *"2.1.0"' "$tmp/cli.out" && ok "cli: --format=sarif is SARIF 2.1.0, on stdout" || bad "cli: --format=sarif is SARIF 2.1.0, on stdout"
grep -q 'error: unknown word' "$tmp/cli.err" && ok "cli: --format=sarif keeps the text form on stderr" || bad "cli: --format=sarif keeps the text form on stderr"

echo "golden: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
