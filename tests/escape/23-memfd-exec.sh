DESC="a program copied into a memfd and run with fexecve"
EXPECT=blocked
STEPS=1
inside() {
	reached "memfd_create and exec are the step itself"
	deny "$PROBE" memfd-exec "$HOME/.ssh/id_rsa"
	deny "$PROBE" memfd-exec "$HOME/notes.txt"
}
