DESC="planting code in writable ~/.omp that omp later runs outside the sandbox"
EXPECT=limitation
STEPS=1
inside() {
	[ -d "$HOME/.omp/agent" ] && reached "~/.omp/agent exists inside"
	# the places omp loads code from are protected by default (examples/protect/omp.sbx) ...
	deny "$PROBE" write "$HOME/.omp/agent/config.yml"
	deny mkdir -p "$HOME/.omp/agent/extensions"
	deny mkdir -p "$HOME/.omp/agent/hooks/pre"
	# ... but not a named profile's agent directory (docs/limitations.md, L1)
	if mkdir -p "$HOME/.omp/profiles/work/agent/extensions" 2>/dev/null; then
		limitation "~/.omp/profiles/NAME/agent is writable (a named profile's extensions and hooks run later, unsandboxed)"
	fi
}
