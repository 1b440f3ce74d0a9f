DESC="metadata of \$HOME files: stat, and chmod/utime of the user's own files"
EXPECT=limitation
inside() {
	local seen=0
	stat "$HOME/.ssh/id_rsa" >/dev/null 2>&1 && seen=$((seen + 1))
	chmod 0644 "$HOME/notes.txt" 2>/dev/null && seen=$((seen + 1))
	touch -m -d @0 "$HOME/notes.txt" 2>/dev/null && seen=$((seen + 1))
	[ "$seen" -eq 3 ] && limitation "stat, chmod and utime work on \$HOME files (Landlock does not cover metadata)"
	deny cat "$HOME/notes.txt"
}
