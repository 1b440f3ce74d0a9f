DESC="chdir into \$HOME, then relative and /proc/self/cwd paths"
EXPECT=blocked
inside() {
	control cd "$HOME"
	cd "$HOME" || return
	deny cat .ssh/id_rsa
	deny cat notes.txt
	deny cat /proc/self/cwd/.aws/credentials
	deny ls .
	deny "$PROBE" write PWNED-cwd
	control cat proj/readme.txt
}
