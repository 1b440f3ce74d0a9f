DESC="O_PATH descriptors on \$HOME and ~/.ssh, then openat() and /proc/self/fd re-opens"
EXPECT=blocked
STEPS=1
inside() {
	deny "$PROBE" opath "$HOME" .ssh/id_rsa
	deny "$PROBE" opath "$HOME/.ssh" id_rsa
	deny "$PROBE" opath "$HOME" notes.txt
	control "$PROBE" opath "$HOME" proj/readme.txt
	"$PROBE" opath "$HOME" proj/readme.txt >/dev/null 2>&1 && reached "O_PATH on \$HOME and openat into the workspace work"
}
