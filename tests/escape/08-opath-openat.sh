DESC="O_PATH descriptors on \$HOME and ~/.ssh, then openat() and /proc/self/fd re-opens"
EXPECT=blocked
inside() {
	deny "$PROBE" opath "$HOME" .ssh/id_rsa
	deny "$PROBE" opath "$HOME/.ssh" id_rsa
	deny "$PROBE" opath "$HOME" notes.txt
	control "$PROBE" opath "$HOME" proj/readme.txt
}
