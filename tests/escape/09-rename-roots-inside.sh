DESC="renaming the workspace, ~/.omp or ~/.ssh from inside (to pull a denied tree into a granted one)"
EXPECT=blocked
STEPS=1
inside() {
	[ -d "$HOME/proj" ] && [ -d "$HOME/.omp" ] && reached "both writable roots exist"
	deny "$PROBE" rename "$HOME/proj" "$HOME/proj2"
	deny "$PROBE" rename "$HOME/.omp" "$HOME/.omp-old"
	deny "$PROBE" rename "$HOME/.ssh" "$HOME/proj/ssh"
	deny "$PROBE" rename "$HOME/notes.txt" "$HOME/.omp/notes.txt"
	deny cat "$HOME/proj/ssh/id_rsa"
	deny cat "$HOME/.omp/notes.txt"
	if [ "${SBX_ESC_ABI:-7}" -lt 2 ]; then
		# Landlock ABI 1 has no REFER: every cross-directory rename fails
		# with EXDEV (docs/limitations.md L11); a rename within the
		# workspace is the control
		"$PROBE" rename "$HOME/proj/readme.txt" "$HOME/.omp/moved.txt" | grep -q 'errno 18)' ||
			echo "CONTROL-FAIL: cross-directory rename at ABI 1 is not EXDEV"
		control "$PROBE" rename "$HOME/proj/readme.txt" "$HOME/proj/moved.txt"
	elif [ "${MECH:-}" = masks ]; then
		control "$PROBE" rename "$HOME/proj/readme.txt" "$HOME/proj/moved.txt"
		# with masks the workspace and ~/.omp are two bind mounts: a rename
		# between them is EXDEV and mv copies (docs/limitations.md L19)
		control mv "$HOME/proj/moved.txt" "$HOME/.omp/moved.txt"
	else
		control "$PROBE" rename "$HOME/proj/readme.txt" "$HOME/.omp/moved.txt"
	fi
}
verify() {
	[ -d "$H/proj" ] && [ -d "$H/.omp" ] && [ -f "$H/.ssh/id_rsa" ] && [ -f "$H/notes.txt" ]
}
