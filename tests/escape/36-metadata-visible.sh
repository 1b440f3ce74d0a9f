DESC="metadata of \$HOME files: stat, and chmod/utime of the user's own files"
STEPS=1
# With masks $HOME is an empty tmpfs: its files cannot even be stat'ed.  The
# complement expansion leaves metadata to Landlock, which does not cover it.
if [ "${MECH:-}" = masks ]; then EXPECT=blocked; else EXPECT=limitation; fi
inside() {
	[ -e "$HOME/proj/readme.txt" ] && reached "the workspace is visible"
	if [ "$MECH" = masks ]; then
		deny stat "$HOME/.ssh/id_rsa"
		deny chmod 0644 "$HOME/notes.txt"
		deny touch -m -d @0 "$HOME/notes.txt"
		control stat "$HOME/proj/readme.txt"
	else
		local seen=0
		stat "$HOME/.ssh/id_rsa" >/dev/null 2>&1 && seen=$((seen + 1))
		chmod 0644 "$HOME/notes.txt" 2>/dev/null && seen=$((seen + 1))
		touch -m -d @0 "$HOME/notes.txt" 2>/dev/null && seen=$((seen + 1))
		[ "$seen" -eq 3 ] && limitation "stat, chmod and utime work on \$HOME files (Landlock does not cover metadata)"
	fi
	deny cat "$HOME/notes.txt"
}
