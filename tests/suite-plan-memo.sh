#!/usr/bin/env bash
# suite-plan-memo.sh: grants inside a write-denied tree, among many plain
# siblings.  The planner decides once per directory for entries that are
# no candidate (runtime/linux/ll_plan.c plain_point): the siblings that are
# candidates or hold one keep their own answer.  With the masks the denied
# tree is bound read-only and the grants are bound back from the original
# mount (runtime/linux/masks.c restrict_dir).  Real launches under
# Landlock, both mechanisms, throwaway home.
# Exit 0 pass, 77 skip, 1 fail.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-build}
case $B in /*) ;; *) B=$root/$B ;; esac
if [ "${SBX_SUITE_INSIDE:-}" != 1 ]; then
	exec /usr/bin/env SBX_SUITE_INSIDE=1 B="$B" "$root/tests/lib/fakehome.sh" -- \
		/bin/bash "$root/tests/suite-plan-memo.sh"
fi
SB=$B/bin/sbrun
[ -x "$SB" ] || { echo "SKIP: $SB not built"; exit 77; }
"$SB" --doctor > /dev/null 2>&1 || { echo "SKIP: no usable Landlock here (sbrun --doctor)"; exit 77; }
H=/home/tester
X=$H/tree
fail=0
pass() { echo "PASS: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
# 60 siblings: every tenth one granted by its own rule, one holding a
# granted subdirectory, one a file; the rest plain.
for i in $(seq -w 0 59); do mkdir -p "$X/d$i"; done
mkdir -p "$X/d33/inner"
echo f > "$X/file07"
P=$H/p.sb
{
	echo '(version 1)'
	echo '(allow default)'
	echo "(deny file-write* (subpath \"$X\"))"
	for i in 00 10 20 30 40 50; do echo "(allow file-write* (subpath \"$X/d$i\"))"; done
	echo "(allow file-write* (subpath \"$X/d33/inner\"))"
	echo "(allow file-write* (literal \"$X/file07\"))"
} > "$P"
for mech in complement masks; do
	mkdir -p "$H/ws"; out=$(cd "$H/ws" && "$SB" --mechanism "$mech" "$P" /bin/bash -c '
		for d in "$0"/d*; do
			if : 2> /dev/null > "$d/new"; then echo "w ${d##*/}"; else echo "r ${d##*/}"; fi
		done
		: 2> /dev/null > "$0/d33/inner/new" && echo "w d33/inner" || echo "r d33/inner"
		echo x 2> /dev/null >> "$0/file07" && echo "w file07" || echo "r file07"
		: 2> /dev/null > "$0/newtop" && echo "w newtop" || echo "r newtop"' "$X" 2> "$H/err.$mech")
	rc=$?
	if [ $rc -ne 0 ] && [ -z "$out" ]; then
		if [ "$mech" = masks ] && grep -q "namespace" "$H/err.$mech"; then
			echo "SKIP: masks unavailable here: $(head -1 "$H/err.$mech")"; continue
		fi
		bad "$mech: launch failed: $(head -3 "$H/err.$mech")"; continue
	fi
	wrong=""
	while read -r what name; do
		want=r
		case $name in d00|d10|d20|d30|d40|d50|d33/inner|file07) want=w ;; esac
		[ "$what" = "$want" ] || wrong="$wrong $name(got $what, want $want)"
	done <<< "$out"
	n=$(wc -l <<< "$out")
	if [ -z "$wrong" ] && [ "$n" -eq 63 ]; then
		pass "$mech: 60 siblings, 9 grants: each entry writable exactly as its rule says ($n checks)"
	else
		bad "$mech: $n checks, wrong:${wrong:- none}"
	fi
done
exit $fail
