DESC="the workspace and ~/.omp replaced by symlinks into \$HOME and ~/.ssh while the sandbox runs"
EXPECT=blocked
STEPS=1
setup() {
	# swap once the sandboxed side runs (it leaves a marker in the
	# workspace), not after a fixed delay a loaded host can outlast
	( for _ in $(seq 150); do [ -e "$H/proj/.inside-started" ] && break; sleep 0.2; done
	  mv "$H/proj" "$H/proj.old" && ln -s "$H" "$H/proj"
	  mv "$H/.omp" "$H/.omp.old" && ln -s "$H/.ssh" "$H/.omp" ) &
	OUTSIDE_PIDS+=("$!")
}
inside() {
	: > ./.inside-started
	if [ "$MECH" = masks ]; then
		# the workspace and ~/.omp are bind mounts of what the launch
		# saw: a swap outside is not seen inside; give it time to happen
		sleep 3
		reached "3 s after the marker: the swap outside has had its time"
		deny cat "$HOME/proj/.ssh/id_rsa"
		deny cat "$HOME/proj/notes.txt"
		deny cat "$HOME/.omp/id_rsa"
		deny cat "$HOME/.ssh/id_rsa"
		control "$PROBE" write ./still-the-old-workspace
		return
	fi
	if ! wait_for '[ -L "$HOME/proj" ] && [ -L "$HOME/.omp" ]' 15; then
		echo "CONTROL-FAIL: the outside swap did not happen"
		return
	fi
	reached "the roots were swapped outside during the run"
	deny cat "$HOME/proj/.ssh/id_rsa"
	deny cat "$HOME/proj/notes.txt"
	deny cat "$HOME/.omp/id_rsa"
	deny ls "$HOME/.omp/"
	deny "$PROBE" write "$HOME/proj/PWNED-swapped-ws"
	deny "$PROBE" write "$HOME/.omp/PWNED-swapped-omp"
	# the old workspace (now proj.old) is still the Landlock grant's, so it
	# reads; a write there is the write gate's (the default protection
	# starts it), which decides by the new name, as Seatbelt would: refused
	control ls .
}
