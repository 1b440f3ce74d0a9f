#!/usr/bin/env bash
# check-conventions.sh - the conventions of docs/architecture.md that a
# reading of the sources can prove, beside the layer check
# (tools/check-layers.sh: links, includes, *_internal.h, exit statuses and
# the environment):
#   alloc    every allocation goes through compiler/common/xalloc.h: no
#            malloc, calloc, realloc, strdup, strndup, asprintf,
#            vasprintf or open_memstream outside compiler/common/xalloc.c
#   buffers  no bare 4096 (a path: a dynamic string, or PATH_MAX where the
#            system bounds it) or 300 (a host: SB_HOST_BUF,
#            compiler/common/sizes.h) as an array size, and a host buffer
#            sized by a named constant
#   grow     an array grows through SB_GROW (compiler/common/xalloc.h):
#            no xrealloc outside compiler/common/xalloc.c but the few
#            growths SB_GROW cannot express, each named in grow_ok below
# Comments and string literals are not code.  Each check is then shown to
# bite on a temporary tree of bad files.
#   tools/check-conventions.sh   exit 0 when every check passes
set -uo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d /tmp/sbx-conventions.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
awk=$PWD/tools/code-lines.awk

# Files with a violation known and not yet fixed ("KIND FILE"), so that
# work in progress can land without hiding a new violation elsewhere: none
# today.  A line whose file is clean fails too (it would hide a later
# regression); the self-test at the end shows both.
known=()

# The xrealloc calls that are no array growth SB_GROW could do: "FILE"
# and a piece of the line, fixed text; the reason beside each.
grow_ok=(
	# an array with no capacity field: 10^5 rules, each with four small
	# arrays, grown at powers of two (the capacity is implied by n)
	"compiler/ir/ir.c	((n) ? 2 * (n) : 1)"
	# a caller's array of unknown capacity, extended once by a known count
	"compiler/ir/ir.c	(*nunbound + x.unbound.n)"
	# not growth: the statements array gives back its unused part
	"compiler/front/parse.c	p->stmts = xrealloc(p->stmts, p->nstmts"
	# a first block inside the struct, moved to the heap when it fills
	"compiler/check/tindex.c	q->lists = xrealloc(q->lists, q->cap"
	"runtime/linux/tree.c	s->v = xrealloc(s->v, s->cap"
)

# not_ok: drop the lines (FILE:LINE: text, on stdin) that grow_ok names
not_ok() {
	local e l ok
	while IFS= read -r l; do
		ok=0
		for e in "${grow_ok[@]}"; do
			[[ $l == "${e%%	*}:"* && $l == *"${e#*	}"* ]] && { ok=1; break; }
		done
		[ $ok = 1 ] || printf '%s\n' "$l"
	done
}

# code ROOT: "FILE:LINE: text" of every line of compiler/ and runtime/
# sources, comments and string and character literals blanked.
code() {
	(cd "$1" && find compiler runtime -type f -name '*.[ch]' 2>/dev/null | LC_ALL=C sort |
		while IFS= read -r f; do
			awk -f "$awk" "$f"
		done)
}

# violations ROOT KIND: the lines of that kind
violations() {
	case $2 in
	alloc)
		code "$1" | grep -v '^compiler/common/xalloc\.c:' |
			grep -E '(^|[^[:alnum:]_.>])(malloc|calloc|realloc|strdup|strndup|asprintf|vasprintf|open_memstream)[[:space:]]*\('
		;;
	buffers)
		code "$1" | grep -E '\[[[:space:]]*(4096|300)[[:space:]]*\]|char[[:space:]]+[[:alnum:]_]*(host|sni)[[:alnum:]_]*[[:space:]]*\[[[:space:]]*[0-9]+[[:space:]]*\]'
		;;
	grow)
		code "$1" | grep -v '^compiler/common/xalloc\.[ch]:' |
			grep -E '(^|[^[:alnum:]_.>])xrealloc[[:space:]]*\(' | not_ok
		;;
	esac
}

is_known() {   # KIND FILE
	local k
	for k in ${known[@]+"${known[@]}"}; do [ "$k" = "$1 $2" ] && return 0; done
	return 1
}

fail=0
declare -A why=(
	[alloc]="allocation outside compiler/common/xalloc.h (use xmalloc, xcalloc, xrealloc, SB_GROW, xstrdup, xasprintf, xopen_memstream)"
	[buffers]="a bare path or host buffer size (a path: a dynamic string, or PATH_MAX where the system bounds it; a host: SB_HOST_BUF)"
	[grow]="a hand-written array growth (use SB_GROW, compiler/common/xalloc.h; or name the exception in grow_ok with its reason)"
)
# judge ROOT: one PASS or FAIL line per kind for the tree at ROOT, the
# files of `known` excepted; status 1 on a new violation or a stale line.
judge() {
	local kind new stale nknown st=0
	for kind in alloc buffers grow; do
		violations "$1" $kind >"$tmp/v"
		new=$(while IFS= read -r l; do is_known $kind "${l%%:*}" || echo "$l"; done <"$tmp/v")
		stale=$(for k in ${known[@]+"${known[@]}"}; do
			[ "${k%% *}" = $kind ] || continue
			grep -q "^${k#* }:" "$tmp/v" || echo "${k#* }"
		done)
		nknown=$(( $(wc -l <"$tmp/v") - $(grep -c . <<<"$new") ))
		if [ -z "$new" ] && [ -z "$stale" ]; then
			echo "PASS: conventions: $kind: none outside the files listed as open work ($nknown line(s) there)"
		else
			[ -n "$new" ] && { echo "FAIL: conventions: ${why[$kind]}:"; sed 's/^/  /' <<<"$new"; }
			[ -n "$stale" ] && { echo "FAIL: conventions: $kind: listed as open work but clean (drop the line in tools/check-conventions.sh):"; sed 's/^/  /' <<<"$stale"; }
			st=1
		fi
	done
	return $st
}
judge . || fail=1

# Each check bites: a tree with one violation of each kind, one look-alike
# in a comment, one in a string, xalloc.c itself, an allowed growth in its
# file and the same line in another file.
mkdir -p "$tmp/bad/runtime/common" "$tmp/bad/compiler/common" "$tmp/bad/compiler/front"
cat >"$tmp/bad/runtime/common/bad.c" <<'C'
/* malloc(4) in a comment, char b[4096] too */
static const char *s = "calloc(1, 2) [300]";
void *a(void) { return malloc(8); }
char *b(const char *x) { return strdup(x); }
void c(void) { char cwd[4096]; char host[256]; (void)cwd; (void)host; }
void d(void) { char hostname[SB_HOST_BUF]; char p[PATH_MAX]; (void)hostname; (void)p; }
void e(int **v, size_t *n, size_t *cap) { if (*n == *cap) { *cap = *cap ? 2 * *cap : 16; *v = xrealloc(*v, *cap * 4); } }
void f(struct p *p) { p->stmts = xrealloc(p->stmts, p->nstmts * 8); SB_GROW(p->v, p->n, p->cap, 4); /* xrealloc(x) */ }
C
printf 'void *xmalloc(unsigned long n) { return malloc(n); }\nvoid *xrealloc(void *p, unsigned long n) { return realloc(p, n); }\n' >"$tmp/bad/compiler/common/xalloc.c"
printf 'void g(struct p *p) { p->stmts = xrealloc(p->stmts, p->nstmts * 8); }\n' >"$tmp/bad/compiler/front/parse.c"
got=$( { violations "$tmp/bad" alloc; violations "$tmp/bad" buffers; violations "$tmp/bad" grow; } | cut -d: -f1,2)
want=$'runtime/common/bad.c:3\nruntime/common/bad.c:4\nruntime/common/bad.c:5\nruntime/common/bad.c:7\nruntime/common/bad.c:8'
if [ "$got" = "$want" ]; then
	echo "PASS: conventions: a tree with a raw malloc, a strdup, bare path and host buffers and hand-written growths fails on exactly those lines"
else
	echo "FAIL: conventions: on the bad tree, want lines 3, 4, 5, 7, 8 of bad.c, got:"; sed 's/^/  /' <<<"$got"; fail=1
fi

# The list of known files bites both ways: listed, bad.c's allocations
# pass; a listed file with no violation of that kind fails.
known=("alloc runtime/common/bad.c" "buffers compiler/common/xalloc.c")
got=$(judge "$tmp/bad"; echo "status $?")
if grep -q '^PASS: conventions: alloc: none outside the files listed as open work (2 line(s) there)$' <<<"$got" &&
	grep -q '^  compiler/common/xalloc.c$' <<<"$got" && grep -q '^status 1$' <<<"$got" &&
	! grep -q 'bad.c:[34]:' <<<"$got"; then
	echo "PASS: conventions: a listed file's violations pass, a listed clean file fails"
else
	echo "FAIL: conventions: the known-files list on the bad tree:"; sed 's/^/  /' <<<"$got"; fail=1
fi
exit $fail
