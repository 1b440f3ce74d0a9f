DESC="io_uring IORING_OP_OPENAT/READ on ~/.ssh/id_rsa"
EXPECT=blocked
STEPS=1
inside() {
	reached "io_uring_setup is the step itself (no preparation)"
	deny "$PROBE" uring "$HOME/.ssh/id_rsa"
	deny "$PROBE" uring "$HOME/notes.txt"
}
