DESC="chdir into \$HOME, then relative and /proc/self/cwd paths"
EXPECT=blocked
STEPS=1
inside() {
	control cd "$HOME"
	cd "$HOME" || return
	[ "$PWD" = "$HOME" ] && reached "the working directory is \$HOME"
	deny cat .ssh/id_rsa
	deny cat notes.txt
	deny cat /proc/self/cwd/.aws/credentials
	deny ls .
	deny "$PROBE" write PWNED-cwd
	control cat proj/readme.txt
}
