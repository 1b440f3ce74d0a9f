#!/usr/bin/env bash
# Injection suite: hostile strings (quotes, backslashes, parentheses,
# semicolons, newlines, tabs and other control characters, invalid UTF-8,
# non-NFC Unicode, very long paths; tests/injection/payloads.sh) go into
#   A. a -D value bound at compile time      (sbc -D PROJECT=... -o)
#   B. policy text, as a quoted path          (sbc -o)
#   C. the workspace name, the home directory and an extra read path of a
#      launch (sbrun --print-profile and omp-sandboxed --print-profile, in a
#      private mount namespace with a throwaway home; root only).
# Each either keeps exactly the intended decisions (the profile, read back,
# answers a fixed set of (operation, path) questions as intended and has as
# many rules as with a benign value) or is refused with an error and writes
# nothing (no output file, nothing on stdout).  Control characters must be
# refused.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
B=${B:-build}
case $B in /*) ;; *) B=$ROOT/$B ;; esac
SBC=$B/bin/sbc
SBRUN=$B/bin/sbrun
OMPS=$B/bin/omp-sandboxed
PROFILE=$B/gen/omp.sb
[ -x "$SBC" ] || { echo "SKIP: $SBC not built"; exit 77; }
. tests/injection/payloads.sh
tmp=${SBX_INJ_TMP:-$(mktemp -d)}
[ -n "${SBX_INJ_TMP:-}" ] || trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0 skip=0
ok() { echo "PASS: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

# decision FILE OP PATH [sbc args...]: allow | deny | unknown | error:<msg>
decision() {
	local f=$1 op=$2 p=$3; shift 3
	local out
	out=$("$SBC" explain "$f" --op "$op" --path "$p" --format=json "$@" 2>"$tmp/explain.err")
	local d
	d=$(printf '%s' "$out" | grep -oE '"decision" *: *"(allow|deny|unknown)"' | head -1 | grep -oE '(allow|deny|unknown)"$' | tr -d '"')
	if [ -z "$d" ]; then
		d=$(printf '%s' "$out" | grep -oiE '^(allow|deny|unknown)' | head -1 | tr 'A-Z' 'a-z')
	fi
	if [ -z "$d" ]; then
		echo "error:$(head -c 200 "$tmp/explain.err" | tr '\n' ' ')"
	else
		echo "$d"
	fi
}

rules_in() { grep -cE '^[[:space:]]*\((allow|deny)' "$1"; }

# probes FILE V HOME [sbc args...]: checks the intended decisions for a
# profile that denies read+write in HOME and re-allows the subtree V.
# Prints the first wrong answer, nothing when all are right.
probes() {
	local f=$1 v=$2 h=$3; shift 3
	local want op p got
	while read -r want op p; do
		p=${p//@V@/$v}
		p=${p//@H@/$h}
		got=$(decision "$f" "$op" "$p" "$@")
		if [ "$got" != "$want" ]; then
			printf '%s %q: %s, want %s' "$op" "$p" "$got" "$want"
			return
		fi
	done <<'PROBES'
allow read @V@
allow read @V@/f
allow write @V@/f
deny read @H@/.ssh/id_rsa
deny write @H@/x
deny read @H@/notes.txt
deny read @V@x
allow read /etc/passwd
PROBES
}

# judge LABEL NAME RC OUTFILE STDERR V HOME [sbc args...]
judge() {
	local label=$1 name=$2 rc=$3 out=$4 errf=$5 v=$6 h=$7; shift 7
	if [ "$rc" -ge 124 ]; then
		bad "$label $name: crash or hang (exit $rc)"; return
	fi
	if [ "$rc" -ne 0 ]; then
		if [ -s "$out" ]; then bad "$label $name: refused but left output ($out)"; return; fi
		if ! grep -qi 'error' "$errf"; then bad "$label $name: refused without an error message"; return; fi
		if [ "$name" = plain ]; then bad "$label $name: a benign value was refused: $(head -1 "$errf")"; return; fi
		ok "$label $name: refused ($(head -1 "$errf" | cut -c1-100))"
		return
	fi
	if [ -n "${CTRL[$name]:-}" ]; then
		bad "$label $name: a control character was accepted"; return
	fi
	local n w
	n=$(rules_in "$out")
	if [ -n "${BENIGN_RULES:-}" ] && [ "$n" != "$BENIGN_RULES" ]; then
		bad "$label $name: $n rules, $BENIGN_RULES with a benign value (a rule was added or removed)"; return
	fi
	w=$(probes "$out" "$v" "$h" "$@")
	if [ -n "$w" ]; then bad "$label $name: wrong decision: $w"; return; fi
	ok "$label $name: exact decisions"
}

names=(plain "${!PAYLOADS[@]}")
mapfile -t names < <(printf '%s\n' "${names[@]}" | awk '!seen[$0]++')

compile_parts() {
# ---- A. -D values ----
BENIGN_RULES=""
for name in "${names[@]}" long-path; do
	if [ "$name" = long-path ]; then v="/home/u$LONG_PATH"; else v="/home/u/${PAYLOADS[$name]}"; fi
	out=$tmp/a.sb
	rm -f "$out"
	timeout 20 "$SBC" tests/injection/param.sbx -D PROJECT="$v" -o "$out" >"$tmp/stdout" 2>"$tmp/err"
	rc=$?
	[ "$name" = plain ] && [ "$rc" -eq 0 ] && BENIGN_RULES=$(rules_in "$out")
	judge "-D" "$name" "$rc" "$out" "$tmp/err" "$v" /home/u -D HOME=/home/u
done

# ---- B. policy text ----
BENIGN_RULES=""
for name in "${names[@]}" long-path; do
	if [ "$name" = long-path ]; then v="/home/u$LONG_PATH"; else v="/home/u/${PAYLOADS[$name]}"; fi
	q=${v//\\/\\\\}
	q=${q//\"/\\\"}
	printf 'default allow;\ndeny read write home;\nallow read write "%s";\n' "$q" >"$tmp/b.sbx"
	out=$tmp/b.sb
	rm -f "$out"
	timeout 20 "$SBC" "$tmp/b.sbx" -o "$out" >"$tmp/stdout" 2>"$tmp/err"
	rc=$?
	[ "$name" = plain ] && [ "$rc" -eq 0 ] && BENIGN_RULES=$(rules_in "$out")
	judge "policy" "$name" "$rc" "$out" "$tmp/err" "$v" /home/u -D HOME=/home/u
done
}

# ---- C. launch values (private mount namespace, root) ----
runtime_part() {
	mount -t tmpfs -o mode=0755 tmpfs /home || return 77
	mount -t tmpfs -o mode=0755 tmpfs /mnt || return 77
	mkdir -p /mnt/bin
	printf '#!/bin/sh\necho omp/0.0.0\n' >/mnt/bin/omp
	chmod 0755 /mnt/bin/omp
	local name v h ws launcher lname
	BENIGN_RULES=""
	for launcher in "$SBRUN" "$OMPS"; do
		[ -x "$launcher" ] || { echo "SKIP: $launcher not built"; skip=$((skip + 1)); continue; }
		lname=$(basename "$launcher")
		for what in workspace home extra; do
			for name in "${names[@]}"; do
				v=${PAYLOADS[$name]}
				h=/home/inj
				if [ "$what" = home ]; then
					case $v in *:*|*$'\n'*) continue ;; esac   # cannot be in /etc/passwd
					h="/home/h-$v"
				fi
				if [ "$name" = long-component ] && [ "$what" != extra ]; then
					continue   # a 300-byte name cannot exist on Linux (NAME_MAX 255)
				fi
				rm -rf /home/* /mnt/x
				mkdir -p "$h/.omp" "$h/.ssh" /mnt/x || { bad "$lname $what $name: cannot create the home"; continue; }
				awk -F: -v OFS=: -v h="$h" '$3 == 0 { $6 = h } { print }' /etc/passwd >/mnt/passwd
				mount --bind /mnt/passwd /etc/passwd || { bad "cannot bind passwd"; return 1; }
				ws="$h/ws"
				[ "$what" = workspace ] && ws="$h/ws-$v"
				mkdir -p "$ws" || { umount /etc/passwd; bad "$lname $what $name: cannot create the workspace"; continue; }
				local extra=()
				# a missing extra leaf is allowed (canonical parent + leaf)
				[ "$what" = extra ] && { mkdir -p "$h/x-$v" 2>/dev/null; extra=(OMP_SANDBOX_EXTRA_READ="$h/x-$v"); }
				local args=(--print-profile)
				[ "$lname" = sbrun ] && args=(--print-profile "$PROFILE")
				(cd "$ws" && timeout 20 env -i PATH=/mnt/bin:/usr/bin:/bin HOME="$h" OMP_SANDBOX_WORKSPACE="$ws" \
					"${extra[@]}" "$launcher" "${args[@]}") >"$tmp/c.sb" 2>"$tmp/err"
				local rc=$?
				umount /etc/passwd
				local target=$ws
				[ "$what" = extra ] && target="$h/x-$v"
				if [ "$rc" -ne 0 ]; then
					judge "$lname $what" "$name" "$rc" "$tmp/c.sb" "$tmp/err" "$target" "$h"
					continue
				fi
				# the launch values, as sandbox-exec would get them (-D)
				local defs=() line dropped=""
				while IFS= read -r line; do
					# `sbc explain -D` refuses the names of the ancestor
					# params (HOME..WORKSPACE_1) that the macOS form uses;
					# they only feed stat-only rules, so they are left out.
					case ${line%%=*} in *..*) dropped=" (ancestor params left unbound)"; continue ;; esac
					defs+=(-D "$line")
				done < <(sed -n 's/^;;   -D //p' "$tmp/c.sb")
				# intended: workspace read+write, extra read, home denied
				local w=""
				for q in "allow read $target/f" "deny read $h/.ssh/id_rsa" "deny write $h/y" \
					 "deny read ${target}zz" "allow write $h/.omp/f" "allow stat $h"; do
					local want=${q%% *} rest=${q#* }
					local op=${rest%% *} p=${rest#* }
					local got
					got=$(decision "$tmp/c.sb" "$op" "$p" "${defs[@]}")
					[ "$got" = "$want" ] || { w="$op $(printf %q "$p"): $got, want $want"; break; }
				done
				if [ -n "${CTRL[$name]:-}" ]; then
					bad "$lname $what $name: a control character was accepted"
				elif [ -n "$w" ]; then
					bad "$lname $what $name: wrong decision: $w"
				else
					ok "$lname $what $name: exact decisions$dropped"
				fi
			done
		done
	done
	return 0
}

if [ -n "${SBX_INJ_IN_NS:-}" ]; then
	runtime_part || echo "SKIP: launch values (no tmpfs in the namespace)"
	echo "$pass $fail $skip" >"$tmp/counts"
	exit 0
fi
compile_parts
if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null && [ -e "$PROFILE" ]; then
	before_pass=$pass before_fail=$fail before_skip=$skip
	SBX_INJ_IN_NS=1 SBX_INJ_TMP=$tmp unshare -m --propagation private bash "$0"
	if [ -f "$tmp/counts" ]; then
		read -r p f s <"$tmp/counts"
		pass=$((before_pass + p)) fail=$((before_fail + f)) skip=$((before_skip + s))
	else
		bad "launch part: did not complete"
	fi
else
	echo "SKIP: launch values (needs root, unshare and $PROFILE)"
	skip=$((skip + 1))
fi
echo "injection: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
