DESC="a hard link to ~/.ssh/id_rsa that already exists inside the workspace at launch"
EXPECT=limitation
STEPS=1
setup() {
	ln "$H/.ssh/id_rsa" "$H/proj/leaked-key"
}
inside() {
	[ -e leaked-key ] && reached "the pre-existing hard link is in the workspace"
	# Landlock rules follow inodes reached by path: the workspace grant
	# covers the link (macOS Seatbelt matches the path and behaves alike).
	if "$PROBE" read leaked-key 2>&1 | grep -q 'SBX-CANARY'; then
		limitation "a pre-existing hard link inside the workspace reads the linked \$HOME file"
	fi
	deny cat "$HOME/.ssh/id_rsa"
}
