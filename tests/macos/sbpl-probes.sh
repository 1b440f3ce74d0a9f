#!/bin/bash
# sbpl-probes.sh [--list] [SBC]: run the `; decide:` probes of tests/sbpl/ok/*.sb
# through the real /usr/bin/sandbox-exec and compare each answer with our
# evaluator's (`sbc explain`).  Run on macOS by .github/workflows/macos.yml;
# --list (any system) only prints the probes it would run, which
# tests/suite-ci-files.sh checks on Linux.  Written for macOS's bash 3.2.
#
# A probe is "OP PATH [VNODE] -> WANT" (tests/sbpl/README.md).  The real
# answer comes from a command doing the operation under the profile:
#   file-read-data      cat PATH (ls PATH for a directory)
#   file-read-metadata  stat PATH
#   file-write-data     append nothing to PATH (touch for a new file)
#   process-exec        run PATH
# The params are bound as `sbc explain` binds them (HOME=/Users/me, ...),
# with -D.  A probe is SKIPped, with the reason, when its path cannot be made
# on the runner (the system volume is read-only) or when the profile does
# not even let /usr/bin/true start.  Each line: PASS (same answer), FAIL
# (different: our model is wrong there), QUESTION (ours is "unknown"; the
# real answer settles it).  Exit 1 on any FAIL.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
list=0
if [ "${1:-}" = --list ]; then list=1; shift; fi
SBC=${1:-$root/build/bin/sbc}
SE=/usr/bin/sandbox-exec
HOME_S=/Users/me WS_S=/Users/me/src/project TMP_S=/private/var/folders/zz/T
summary=${GITHUB_STEP_SUMMARY:-/dev/stdout}
npass=0 nfail=0 nskip=0 nq=0
[ $list = 1 ] || { echo "| profile | probe | ours | sandbox-exec | |" >> "$summary"; echo "|---|---|---|---|---|" >> "$summary"; }

# Make PATH exist (as a directory when VNODE says so), as the probe needs.
make_path() { # PATH VNODE
	case $1 in
	/private/tmp/*|/tmp/*|/Users/me|/Users/me/*|/Users/other|/Users/other/*|/private/var/folders/zz/*) ;;
	*) [ -e "$1" ] && return 0; return 1 ;;
	esac
	if [ "$2" = directory ]; then sudo mkdir -p "$1"; else sudo mkdir -p "$(dirname "$1")" && sudo touch "$1"; fi
	sudo chmod -R a+rwX "$1" 2> /dev/null
	return 0
}

real_answer() { # PROFILE OP PATH -> allow|deny|error:TEXT
	local prof=$1 op=$2 p=$3 out rc
	case $op in
	file-read-data) if [ -d "$p" ]; then set -- /bin/ls "$p"; else set -- /bin/cat "$p"; fi ;;
	file-read-metadata) set -- /usr/bin/stat "$p" ;;
	file-write-data) set -- /bin/sh -c ': >> "$1"' sh "$p" ;;
	process-exec) set -- "$p" -c true ;;
	*) echo "error:no probe command for $op"; return ;;
	esac
	out=$("$SE" -f "$prof" -D HOME=$HOME_S -D WORKSPACE=$WS_S -D TMPDIR=$TMP_S "$@" 2>&1 > /dev/null)
	rc=$?
	if [ $rc = 0 ]; then echo allow
	elif echo "$out" | grep -q "Operation not permitted"; then echo deny
	else echo "error:exit $rc: $(echo "$out" | head -1)"; fi
}

for prof in "$root"/tests/sbpl/ok/*.sb; do
	name=$(basename "$prof")
	starts=1
	if [ $list = 0 ] && ! "$SE" -f "$prof" -D HOME=$HOME_S -D WORKSPACE=$WS_S -D TMPDIR=$TMP_S /usr/bin/true 2> /dev/null; then
		starts=0
	fi
	grep '^; decide:' "$prof" | sed 's/^; decide: *//' | while read -r op p rest; do
		vnode=; want=${rest##*-> }
		case $rest in "->"*) ;; *) vnode=${rest%% ->*} ;; esac
		if [ $list = 1 ]; then echo "$name|$op|$p|$vnode|$want"; continue; fi
		ours=$("$SBC" explain "$prof" --op "$op" --path "$p" ${vnode:+--vnode "$vnode"} > /dev/null 2>&1; echo $?)
		case $ours in 0) ours=allow ;; 1) ours=deny ;; 2) ours=unknown ;; *) ours="error($ours)" ;; esac
		if [ $starts = 0 ]; then
			echo "SKIP: $name: $op $p: the profile does not let /usr/bin/true start"
			echo "| $name | $op $p | $ours | (no start) | SKIP |" >> "$summary"; continue
		fi
		if ! make_path "$p" "$vnode"; then
			echo "SKIP: $name: $op $p: the path cannot be made on this runner"
			echo "| $name | $op $p | $ours | (no path) | SKIP |" >> "$summary"; continue
		fi
		real=$(real_answer "$prof" "$op" "$p")
		if [ "$ours" = unknown ]; then verdict=QUESTION
		elif [ "$ours" = "$real" ]; then verdict=PASS
		else verdict=FAIL; fi
		echo "$verdict: $name: $op $p: ours $ours, sandbox-exec $real"
		echo "| $name | $op $p | $ours | $real | $verdict |" >> "$summary"
	done
done > "${TMPDIR:-/tmp}/sbpl-probes.out"
cat "${TMPDIR:-/tmp}/sbpl-probes.out"
[ $list = 1 ] && exit 0
! grep -q '^FAIL:' "${TMPDIR:-/tmp}/sbpl-probes.out"
