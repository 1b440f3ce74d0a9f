DESC="chroot (directly, and inside a new user namespace) to reach \$HOME files"
EXPECT=blocked
inside() {
	deny "$PROBE" chroot "$HOME" /.ssh/id_rsa
	deny "$PROBE" chroot / "$HOME/notes.txt"
}
