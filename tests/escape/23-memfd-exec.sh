DESC="a program copied into a memfd and run with fexecve"
EXPECT=blocked
inside() {
	deny "$PROBE" memfd-exec "$HOME/.ssh/id_rsa"
	deny "$PROBE" memfd-exec "$HOME/notes.txt"
}
