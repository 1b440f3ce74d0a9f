DESC="planting code in writable ~/.omp that omp later runs outside the sandbox"
EXPECT=limitation
STEPS=1
inside() {
	[ -d "$HOME/.omp/agent" ] && reached "~/.omp/agent exists inside"
	if "$PROBE" write "$HOME/.omp/agent/config.yml" >/dev/null 2>&1 &&
		mkdir -p "$HOME/.omp/extensions" 2>/dev/null; then
		limitation "~/.omp is writable (omp's config, extensions and hooks there run later, unsandboxed)"
	fi
}
