DESC="a seccomp listener of the tree's own answering CONTINUE, to get a write the write gate refuses (.git/hooks/pre-commit) through, untraced and traced"
EXPECT=blocked
STEPS=2
setup() {
	git init -q "$H/proj" 2>/dev/null
	[ "$ID" = user ] && chown -R "$USER_UID:$USER_GID" "$H/proj/.git"
	rm -f "$H/proj/.git/hooks/pre-commit"
}
launch() {
	# the trace's filter carries the gate's (one listener): both must refuse
	run_inside
	run_inside OMP_SANDBOX_TRACE=1
}
inside() {
	# sound_probe --listen: installs its own filter and listener, a child
	# answers every notification CONTINUE, then opens the gated file for
	# writing (tests/helpers/sound_probe.c)
	local out
	out=$("${PROBE%/*}/sound_probe" --listen /etc/hostname "$PWD/.git/hooks/pre-commit" 2>&1)
	printf '%s\n' "$out" | grep -E '^(listener|listen gate_write)' | sed 's/^/    /'
	grep -q '^listener ' <<<"$out" && reached "tried to install a listener of its own"
	grep -q '^listen gate_write ' <<<"$out" && reached "opened the gated file under it"
	deny test -e "$PWD/.git/hooks/pre-commit"
	deny grep -qE '^listener ok' <<<"$out"
}
