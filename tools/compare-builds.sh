#!/usr/bin/env bash
# compare-builds.sh - prove a refactoring left the tools' output unchanged.
#   tools/compare-builds.sh [REF] [NEW_BUILD_DIR]
# Builds commit REF (default db787e9, the tree before the stage refactoring)
# in a temporary git worktree under /tmp, then runs both builds on the same
# inputs (every examples/**/*.sbx and tests/golden/** input of the current
# tree) and compares, byte for byte and with the exit status:
#   sbc (compile, with tests/golden/ok/NAME.args), sbc --check, --dump-ir,
#   the failing goldens' diagnostics (text and JSON),
#   sbrun --print-profile / --print-launch / --plan, omp-sandboxed
#   --print-profile, sbc explain on a few paths, sbc diff between examples.
# NEW_BUILD_DIR defaults to build/ (built first with `make all`).
# Prints one line per difference and a summary; exit 0 when all agree.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
REF=${1:-db787e9}
NB=${2:-build}
REFDIR=/tmp/sbx-ref-$(git rev-parse --short "$REF")
if [ ! -x "$REFDIR/build/bin/sbc" ]; then
	rm -rf "$REFDIR"
	git worktree prune
	git worktree add --detach "$REFDIR" "$REF" > /dev/null || exit 2
	nice make -C "$REFDIR" -j2 SBX_SKIP_SANITIZE=1 all > "$REFDIR.log" 2>&1 ||
		{ echo "reference build failed: $REFDIR.log"; exit 2; }
fi
nice make -j2 B="$NB" all > /dev/null || { echo "build of the current tree failed"; exit 2; }
OLD=$REFDIR/build/bin
case $NB in /*) NEW=$NB/bin ;; *) NEW=$ROOT/$NB/bin ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A fixed, private environment so both runs see the same home and workspace.
mkdir -p "$tmp/home/.omp" "$tmp/ws" "$tmp/t"
export HOME=$tmp/home TMPDIR=$tmp/t NO_COLOR=1 LC_ALL=C
unset OMP_SANDBOX_EXTRA_WRITE OMP_SANDBOX_EXTRA_READ XDG_RUNTIME_DIR
same=0 differ=0

run_both() {   # label cwd cmd-args... ; the first arg is the tool name
	local label=$1 dir=$2 tool=$3
	shift 3
	(cd "$dir" && "$OLD/$tool" "$@") > "$tmp/o.out" 2> "$tmp/o.err"
	echo "rc=$?" >> "$tmp/o.out"
	(cd "$dir" && "$NEW/$tool" "$@") > "$tmp/n.out" 2> "$tmp/n.err"
	echo "rc=$?" >> "$tmp/n.out"
	if cmp -s "$tmp/o.out" "$tmp/n.out" && cmp -s "$tmp/o.err" "$tmp/n.err"; then
		same=$((same + 1))
	else
		differ=$((differ + 1))
		echo "DIFFERS: $label"
		diff -u "$tmp/o.out" "$tmp/n.out" | head -20
		diff -u "$tmp/o.err" "$tmp/n.err" | head -20
	fi
}

args_of() {
	args=()
	[ -f "$1" ] && mapfile -t args < "$1"
}

inputs=()
while IFS= read -r f; do inputs+=("$f"); done < <(
	{ find examples -name '*.sbx'; find tests/golden -name '*.sbx'; } | LC_ALL=C sort)
for f in "${inputs[@]}"; do
	d=$(dirname "$f") b=$(basename "$f")
	args_of "${f%.sbx}.args"
	run_both "sbc $f" "$d" sbc "${args[@]}" "$b" -o -
	run_both "sbc --check $f" "$d" sbc --check "$b"
	run_both "sbc --check --format=json $f" "$d" sbc --check --format=json "$b"
	run_both "sbc --dump-ir $f" "$d" sbc "${args[@]}" --dump-ir "$b"
done

# The runtime's printed forms, on every profile the old build compiles.
profiles=()
for f in "${inputs[@]}"; do
	args_of "${f%.sbx}.args"
	out=$tmp/p/$(echo "$f" | tr / -).sb
	mkdir -p "$tmp/p"
	(cd "$(dirname "$f")" && "$OLD/sbc" "${args[@]}" "$(basename "$f")" -o "$out") 2> /dev/null &&
		profiles+=("$out")
done
while IFS= read -r f; do profiles+=("$ROOT/$f"); done < <(find tests/golden -name '*.sb' | LC_ALL=C sort)
for p in "${profiles[@]}"; do
	for act in --print-profile --print-launch --plan; do
		run_both "sbrun $act $(basename "$p")" "$tmp/ws" sbrun "$act" "$p"
	done
	for q in "read $tmp/home/.ssh/id_rsa" "write $tmp/ws/x" "exec /usr/bin/env" "file-read-data /etc/passwd" \
		"write /tmp/x" "list /private/var/folders"; do
		set -- $q
		run_both "sbc explain $q $(basename "$p")" "$tmp/ws" sbc explain "$p" --op "$1" --path "$2"
		run_both "sbc explain --format=json $q $(basename "$p")" "$tmp/ws" sbc explain --format=json "$p" --op "$1" --path "$2"
	done
done
run_both "omp-sandboxed --print-profile" "$tmp/ws" omp-sandboxed --print-profile
ex=()
while IFS= read -r f; do ex+=("$f"); done < <(find examples -maxdepth 1 -name '*.sbx' | LC_ALL=C sort)
for ((i = 1; i < ${#ex[@]}; i++)); do
	run_both "sbc diff ${ex[0]} ${ex[$i]}" "$ROOT" sbc diff "${ex[0]}" "${ex[$i]}"
	run_both "sbc diff --format=json ${ex[0]} ${ex[$i]}" "$ROOT" sbc diff --format json "${ex[0]}" "${ex[$i]}"
done
echo "compare-builds: $REF vs the current tree: $same identical, $differ different"
[ "$differ" -eq 0 ]
