DESC="chroot (directly, and inside a new user namespace) to reach \$HOME files"
EXPECT=blocked
STEPS=1
inside() {
	reached "chroot(2) is the step itself (no preparation)"
	deny "$PROBE" chroot "$HOME" /.ssh/id_rsa
	deny "$PROBE" chroot / "$HOME/notes.txt"
}
