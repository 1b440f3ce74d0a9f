# tests/lib/toolpath.sh, sourced: toolpath DIR NAME...
# Make DIR hold symlinks to the named programs (from /usr/bin or /bin) and
# nothing else.  A test that asserts on what is NOT on PATH (no omp, no bun)
# uses DIR as its PATH instead of /usr/bin:/bin, which on a user's machine
# holds a global omp and bun (npm install -g; tests/lib/hostile-host.sh).
# Returns 1 when a named program is missing.
toolpath() {
	local dir=$1 name d
	shift
	mkdir -p "$dir" || return 1
	for name in "$@"; do
		for d in /usr/bin /bin; do
			[ -x "$d/$name" ] && { ln -sfn "$d/$name" "$dir/$name"; continue 2; }
		done
		echo "toolpath: $name not found in /usr/bin or /bin" >&2
		return 1
	done
}
