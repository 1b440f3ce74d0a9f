DESC="renaming the workspace, ~/.omp or ~/.ssh from inside (to pull a denied tree into a granted one)"
EXPECT=blocked
inside() {
	deny "$PROBE" rename "$HOME/proj" "$HOME/proj2"
	deny "$PROBE" rename "$HOME/.omp" "$HOME/.omp-old"
	deny "$PROBE" rename "$HOME/.ssh" "$HOME/proj/ssh"
	deny "$PROBE" rename "$HOME/notes.txt" "$HOME/.omp/notes.txt"
	deny cat "$HOME/proj/ssh/id_rsa"
	deny cat "$HOME/.omp/notes.txt"
	control "$PROBE" rename "$HOME/proj/readme.txt" "$HOME/proj/moved.txt"
	# with masks the workspace and ~/.omp are two bind mounts: a rename
	# between them is EXDEV and mv copies (docs/limitations.md)
	control mv "$HOME/proj/moved.txt" "$HOME/.omp/moved.txt"
}
verify() {
	[ -d "$H/proj" ] && [ -d "$H/.omp" ] && [ -f "$H/.ssh/id_rsa" ] && [ -f "$H/notes.txt" ]
}
