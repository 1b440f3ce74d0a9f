# lib.sh - helpers for the escape techniques (tests/escape/NN-*.sh), sourced
# both outside (setup/verify, by tests/suite-escape.sh) and inside the
# sandbox (before `inside`).  Inside, only shell builtins run at load time.
#
# A technique file defines:
#   DESC      one line: what is tried
#   EXPECT    "blocked", or "limitation" (documented in docs/limitations.md;
#             the test asserts the documented behaviour so a change shows)
#   inside()  runs under sbrun with the default omp profile, cwd = workspace
#   setup(), verify(), launch()  optional, outside (see suite-escape.sh)
# Inside helpers print evidence; the driver decides from it:
#   deny CMD...     CMD must fail; prints its output, "ESCAPED: ..." if not
#   control CMD...  CMD must succeed (proves the attempt was not vacuous)
#   limitation TXT  the documented limitation was observed
#   skip TXT        the technique cannot run here

deny() {
	local out rc
	out=$("$@" 2>&1)
	rc=$?
	printf '%s\n' "$out" | sed 's/^/    /'
	if [ "$rc" -eq 0 ]; then
		echo "ESCAPED: $*"
	else
		echo "blocked: $* (exit $rc)"
	fi
}

control() {
	local out
	if ! out=$("$@" 2>&1); then
		echo "CONTROL-FAIL: $*"
		printf '%s\n' "$out" | sed 's/^/    /'
	fi
}

limitation() {
	echo "LIMITATION-OBSERVED: $*"
}

skip() {
	echo "SBX-SKIP: $*"
}

# inside: wait up to $2 seconds (default 10) until test "$1" holds.
wait_for() {
	local i=0 max=$((${2:-10} * 10))
	while ! eval "$1"; do
		i=$((i + 1))
		[ "$i" -ge "$max" ] && return 1
		sleep 0.1
	done
}

# reached TEXT: the technique got to the step it is about (before the check
# that must fail).  A technique that names STEPS=N must print N of them,
# so a failure earlier (a missing tool, a refused preparation) cannot pass
# as "blocked" (suite-escape.sh).
reached() {
	echo "REACHED: $*"
}

# outside (setup/launch): compile a policy for a technique into a profile
# every identity can read; prints its path.
compile_profile() {   # NAME POLICY-TEXT
	local d=/mnt/.esc-prof
	mkdir -p "$d" && chmod 0755 "$d"
	printf '%s\n' "$2" >"$d/$1.sbx"
	"$B/bin/sbc" -o "$d/$1.sb" "$d/$1.sbx" >/dev/null 2>&1 || return 1
	chmod 0644 "$d/$1.sb" "$d/$1.sbx"
	echo "$d/$1.sb"
}
