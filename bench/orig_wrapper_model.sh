#!/usr/bin/env bash
# orig_wrapper_model.sh - a cost model of the original omp-sandboxed wrapper's
# `--print-profile` path on Linux: the same number of forks and of external
# programs, in the same shapes (command substitutions, a `cat` heredoc with a
# command substitution inside it), printing a profile of the same size.  It
# is NOT the original and grants nothing; it exists to be timed.
#
# How the forks were counted (../shared/brief/seed-behaviour.md §1, §4-§6,
# §13 D1; cross-checked against the public text of the wrapper): bash forks
# once per $(...) even around builtins, and once per external command.
#   1  $(command -v omp)                       find omp          (§1 step 1)
#   2  $(dscl ... "$(id -un)")                  home lookup: 2 forks, 2 programs
#                                               (dscl -> getent here)  (§4.1)
#   1  $(cd HOME && pwd -P)                     canonical home    (§4.2)
#   1  $(cd WORKSPACE && pwd -P)                canonical workspace (§5.4)
#   1  $(cd TMPDIR && pwd -P || echo ...)       canonical TMPDIR  (§6.1)
#   3  $(sb_escape ...) for workspace, home, TMPDIR   (§2 escaping)
#   1  cat <<EOF ... the heredoc                profile text      (D1)
#   1  `ls ...` inside the heredoc              backtick comment  (D1)
#  --
#  11 forks, 4 external programs (id, dscl, cat, ls), plus the start-up
#     exec chain /usr/bin/env -> bash.  Each EXTRA_WRITE/EXTRA_READ entry adds
#     3 more forks ($(canon) + its inner $(cd && pwd -P) + $(sb_escape)); a
#     real launch adds $(mktemp) and then execs env -i -> sandbox-exec -> omp.
set -euo pipefail

omp_bin="$(command -v omp || true)"
[ -n "$omp_bin" ] || { echo "orig_wrapper_model: omp not on PATH" >&2; exit 1; }

# The original asks the directory service: dscl . -read /Users/$(id -un).
pw_line="$(/usr/bin/getent passwd "$(/usr/bin/id -un)")" || true
home_raw=${pw_line#*:*:*:*:*:}
home_raw=${home_raw%%:*}
[ -n "$home_raw" ] || home_raw=$HOME
home_dir="$(cd "$home_raw" && pwd -P)"
workspace="$(cd "${OMP_SANDBOX_WORKSPACE:-$PWD}" && pwd -P)"
tmp_canon="$(cd "${TMPDIR:-/tmp}" 2>/dev/null && pwd -P || echo /tmp)"

escape() {
	local s=${1//\\/\\\\}
	printf '%s' "${s//\"/\\\"}"
}

print_profile() {
	local ws home tmp
	ws="$(escape "$workspace")"
	home="$(escape "$home_dir")"
	tmp="$(escape "$tmp_canon")"
	cat <<PROFILE
(version 1)
(allow default)
(deny file-write*)
(allow file-write*
    (subpath "${ws}")
    (subpath "/private/tmp")
    (subpath "${tmp}")
    (subpath "${home}/.omp"))
(allow file-write*
    (subpath "/private/var/folders")
    (subpath "/dev"))
(deny file-read* (subpath "${home}"))
(allow file-read*
    (subpath "${home}/.omp")
    (subpath "${ws}"))
;; the original's comment line runs a command here: `ls -ld $home_dir`
(allow file-read-metadata (literal "${home}"))
PROFILE
}

print_profile
