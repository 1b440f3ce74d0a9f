DESC="io_uring IORING_OP_OPENAT/READ on ~/.ssh/id_rsa"
EXPECT=blocked
inside() {
	deny "$PROBE" uring "$HOME/.ssh/id_rsa"
	deny "$PROBE" uring "$HOME/notes.txt"
}
