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
