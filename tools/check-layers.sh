#!/usr/bin/env bash
# check-layers.sh - prove the stage boundaries of docs/architecture.md.
# At link time: each stage's archive is linked whole (every object, used or
# not) with only the archives that stage may use: a call into a forbidden
# stage is an undefined reference and fails here.  At include time: a file
# of a stage includes headers only from its own folder and the folders of
# the stages it may use, and a `*_internal.h` only from its own folder.
# By reading the sources: only the programs include exit_status.h or read
# the environment.  The table is tools/stages.txt, and docs/architecture.md's
# "may use" cells must be what it says.  Each check is then shown to bite
# on a deliberately bad input (a forbidden call; bad includes, a getenv, a
# changed doc row in a temporary tree), never by breaking this tree.  The
# other conventions: tools/check-conventions.sh.
set -uo pipefail
cd "$(dirname "$0")/.."
B=${B:-build}
CC=${CC:-cc}
LDFLAGS=${LDFLAGS:-}
tmp=$(mktemp -d /tmp/sbx-layers.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# The one table of stages, tools/stages.txt: folder | the folders it may
# use, users before what they use (the link order).  Both checks below
# read it; the Makefile's link lines and docs/architecture.md's "may use"
# cells come from it too (checked at the end).
mapfile -t stages < <(tools/stages.sh rows) && [ ${#stages[@]} -gt 0 ] || exit 1
# The grammar is built into the front stage (Makefile: C_OBJ_front).
grammar_stage=compiler/front

# folder -> its archive
lib_of() {
	case $1 in
	compiler/*) printf '%s' "$B/lib/libsbc-${1#compiler/}.a" ;;
	runtime/*) printf '%s' "$B/lib/libsbrt-${1#runtime/}.a" ;;
	esac
}

# stage -> itself and the folders it may use; "" when not a stage
may_of() {
	local row
	for row in "${stages[@]}"; do
		[ "${row%%|*}" = "$1" ] && { printf '%s %s' "$1" "${row#*|}"; return; }
	done
}

# check_includes ROOT: every quoted #include of ROOT's stage folders (and
# grammar/) against the table.  Prints one line per violation,
# "FILE:LINE: RULE", and returns 1 when there was any.
check_includes() {
	local root=$1 stage may rc=0 f n inc folder gen
	# the headers bison and flex write (build/gen/NAME_parser.h, NAME_lexer.h)
	gen=" "
	for f in "$root"/grammar/*.y "$root"/grammar/*.l; do
		[ -e "$f" ] || continue
		case $f in
		*.y) gen+="$(basename "$f" .y)_parser.h " ;;
		*.l) gen+="$(basename "$f" .l)_lexer.h " ;;
		esac
	done
	while IFS= read -r f; do
		stage=${f%/*}
		[ "$stage" = grammar ] && stage=$grammar_stage
		may=$(may_of "$stage")
		[ -n "$may" ] || continue
		while IFS=: read -r n inc; do
			inc=${inc#*\"}
			inc=${inc%%\"*}
			folder=${inc%/*}
			if [ "$folder" = "$inc" ]; then
				if [[ $gen != *" $inc "* ]]; then
					echo "$f:$n: \"$inc\": include headers by their path from the repository root (docs/architecture.md)"
					rc=1
				elif [ "$stage" != "$grammar_stage" ]; then
					echo "$f:$n: \"$inc\": the generated grammar headers belong to $grammar_stage; $stage may not include them"
					rc=1
				fi
			elif [[ ${inc##*/} == *_internal.h && $folder != "${f%/*}" ]]; then
				echo "$f:$n: \"$inc\": a *_internal.h is private to its folder ($folder); $stage may not include it"
				rc=1
			elif [[ " $may " != *" $folder "* ]]; then
				echo "$f:$n: \"$inc\": $stage may include only from: $may"
				rc=1
			fi
		done < <(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$root/$f")
	done < <(cd "$root" && find compiler runtime grammar -type f \( -name '*.[chyl]' \) 2>/dev/null | sort)
	return $rc
}

fail=0
if check_includes . >"$tmp/inc"; then
	echo "PASS: layers: every stage includes only headers of the stages it may use"
else
	echo "FAIL: layers: includes across stage boundaries:"; sed 's/^/  /' "$tmp/inc"; fail=1
fi
# The include check must bite: a temporary tree with a runtime file that
# includes the front end, a program that includes the Linux backend's
# private header, and a header included without its folder.
mkdir -p "$tmp/bad/runtime/common" "$tmp/bad/runtime/cli" "$tmp/bad/runtime/linux" "$tmp/bad/compiler/ir"
printf '#include <stdio.h>\n#include "runtime/common/env.h"\n#include "compiler/front/ast.h"\n' >"$tmp/bad/runtime/common/bad.c"
printf '#include "runtime/linux/linux.h"\n#include "runtime/linux/ll_internal.h"\n' >"$tmp/bad/runtime/cli/bad.c"
printf '#include "runtime/linux/ll_internal.h"\n' >"$tmp/bad/runtime/linux/ok.c"
printf '/* #include "compiler/sbpl/sbpl.h" is only a comment */\n#include "ir.h"\n' >"$tmp/bad/compiler/ir/bad.h"
check_includes "$tmp/bad" >"$tmp/inc"
rc=$?
want=(
	'compiler/ir/bad.h:2: "ir.h": include headers by their path from the repository root'
	'runtime/cli/bad.c:2: "runtime/linux/ll_internal.h": a *_internal.h is private to its folder (runtime/linux); runtime/cli may not include it'
	'runtime/common/bad.c:3: "compiler/front/ast.h": runtime/common may include only from: runtime/common compiler/eval compiler/sbpl compiler/ir compiler/common'
)
ok=1
[ "$rc" = 1 ] && [ "$(wc -l <"$tmp/inc")" = ${#want[@]} ] || ok=0
for w in "${want[@]}"; do
	grep -qF -- "$w" "$tmp/inc" || ok=0
done
if [ $ok = 1 ]; then
	echo "PASS: layers: the include check names each bad include (file:line and the rule) and fails"
else
	echo "FAIL: layers: the include check on a bad tree (status $rc) said:"; sed 's/^/  /' "$tmp/inc"; fail=1
fi

table=()
for row in "${stages[@]}"; do
	deps=""
	for s in ${row#*|}; do deps+="$(lib_of "$s") "; done
	table+=("$(lib_of "${row%%|*}")|$deps")
done
printf 'int main(void) { return 0; }\n' >"$tmp/main.c"
# The launcher programs provide the embedded profile; stand in for it.
printf 'const char sb_default_profile[] = ""; const unsigned long sb_default_profile_len = 0;\n' >"$tmp/embed.c"
"$CC" -c -o "$tmp/main.o" "$tmp/main.c" && "$CC" -c -o "$tmp/embed.o" "$tmp/embed.c" || exit 1
for row in "${table[@]}"; do
	lib=${row%%|*}; lib=${lib% }
	deps=${row#*|}
	name=$(basename "$lib" .a)
	# shellcheck disable=SC2086
	if "$CC" $LDFLAGS -o "$tmp/a.out" "$tmp/main.o" "$tmp/embed.o" -Wl,--whole-archive "$lib" \
		-Wl,--no-whole-archive $deps -lm >"$tmp/log" 2>&1; then
		echo "PASS: layers: ${name#lib} links with only what it may use"
	else
		echo "FAIL: layers: ${name#lib} uses a stage it may not:"
		grep -o "undefined reference to \`[^']*'" "$tmp/log" | sort -u | head -10 | sed 's/^/  /'
		fail=1
	fi
done
# The check must bite: a runtime object calling a check pass does not link.
printf 'int sb_check_all(const void *, const void *, void *);\nint rt_forbidden(void) { return sb_check_all(0, 0, 0); }\n' >"$tmp/bad.c"
"$CC" -c -o "$tmp/bad.o" "$tmp/bad.c" || exit 1
# shellcheck disable=SC2086
if "$CC" $LDFLAGS -o "$tmp/a.out" "$tmp/main.o" "$tmp/embed.o" "$tmp/bad.o" $(for s in $(may_of runtime/common); do lib_of "$s"; echo; done) -lm >"$tmp/log" 2>&1; then
	echo "FAIL: layers: a runtime call into a check pass linked"; fail=1
elif grep -q "undefined reference to \`sb_check_all'" "$tmp/log"; then
	echo "PASS: layers: a runtime call into a check pass fails to link (undefined sb_check_all)"
else
	echo "FAIL: layers: the forbidden link failed for another reason:"; head -5 "$tmp/log"; fail=1
fi
# Only the programs choose exit statuses (compiler/common/exit_status.h):
# no library stage includes that header.
bad=$(grep -l '"compiler/common/exit_status.h"' compiler/*/*.[ch] runtime/*/*.[ch] 2>/dev/null |
	grep -v -e '^compiler/cli/' -e '^runtime/cli/' -e '^compiler/common/exit_status.h$')
if [ -z "$bad" ]; then
	echo "PASS: layers: exit statuses are chosen only under compiler/cli and runtime/cli"
else
	echo "FAIL: layers: library code includes exit_status.h:" $bad; fail=1
fi
# Only the programs read the process environment (docs/architecture.md,
# "What each stage must not do"): library stages get an envp or a value.
# Comments and literals are blanked first (tools/code-lines.awk: a comment
# may name `environ`, and SBPL's "getenv" in a string is not a call).
# env_reads ROOT: the lines of ROOT's library stages that read it
env_reads() {
	(cd "$1" && for f in compiler/*/*.[ch] runtime/*/*.[ch]; do
		[ -e "$f" ] || continue
		case $f in compiler/cli/* | runtime/cli/*) continue ;; esac
		awk -f "$awk" "$f"
	done) | grep -E '(^|[^"[:alnum:]_])(secure_)?getenv[[:space:]]*\(|(^|[^"/[:alnum:]_])environ([^"[:alnum:]_]|$)' |
		sed -E 's/: +/: /'
}
awk=$PWD/tools/code-lines.awk
bad=$(env_reads .)
if [ -z "$bad" ]; then
	echo "PASS: layers: the environment is read only under compiler/cli and runtime/cli"
else
	echo "FAIL: layers: library code reads the environment:"; sed 's/^/  /' <<<"$bad"; fail=1
fi
# ... and the check bites: a library file that calls getenv and names
# environ, beside a comment and a string that only mention them, and a
# program that may read it.
mkdir -p "$tmp/env/runtime/common" "$tmp/env/runtime/cli"
printf '/* getenv("HOME") */
static const char *s = "getenv(x) environ";
const char *h(void) { return getenv("HOME"); }
extern char **environ;
' >"$tmp/env/runtime/common/bad.c"
printf 'const char *h(void) { return getenv("HOME"); }
' >"$tmp/env/runtime/cli/ok.c"
got=$(env_reads "$tmp/env" | cut -d: -f1,2 | tr '\n' ' ')
if [ "$got" = "runtime/common/bad.c:3 runtime/common/bad.c:4 " ]; then
	echo "PASS: layers: the environment check names a library's getenv and environ, not a comment, a string or a program"
else
	echo "FAIL: layers: the environment check on a bad tree said: $got"; fail=1
fi
# The doc's tables are the same table: each stage's "may use" cell in
# docs/architecture.md (the compiler's stages under "## The compiler", the
# runtime's under "## The runtime") is what tools/stages.sh doc makes of
# tools/stages.txt, so neither can change alone.
doc_cells() {   # DOC -> "FOLDER|CELL" for each row of the two stage tables
	awk -F' \\| ' '
		/^## The compiler/ { side = "compiler"; next }
		/^## The runtime/ { side = "runtime"; next }
		/^## / { side = "" }
		side != "" && /^\| `[a-z]+\/` \|/ {
			name = $1; sub(/^\| `/, "", name); sub(/\/`$/, "", name)
			cell = $NF; sub(/ \|$/, "", cell)
			print side "/" name "|" cell
		}' "$1"
}
if diff <(tools/stages.sh doc) <(doc_cells docs/architecture.md) >"$tmp/doc"; then
	echo "PASS: layers: docs/architecture.md's \"may use\" cells are tools/stages.txt's table"
else
	echo "FAIL: layers: docs/architecture.md's stage tables differ from tools/stages.txt (< the table, > the doc):"
	sed 's/^/  /' "$tmp/doc"; fail=1
fi
# ... and the check bites: a doc whose driver row lost a stage.
sed 's/^\(| `driver\/` |.*| \)lower, /\1/' docs/architecture.md >"$tmp/arch.md"
if ! diff <(tools/stages.sh doc) <(doc_cells "$tmp/arch.md") >/dev/null &&
	[ "$(doc_cells "$tmp/arch.md" | wc -l)" = "$(tools/stages.sh doc | wc -l)" ]; then
	echo "PASS: layers: a doc row that differs from the table is caught"
else
	echo "FAIL: layers: a doc row without \"lower\" was not caught"; fail=1
fi
exit $fail
