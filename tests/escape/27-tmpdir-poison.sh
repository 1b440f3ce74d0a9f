DESC="TMPDIR pointed at \$HOME before launch, to make \$HOME writable"
EXPECT=blocked
STEPS=1
launch() { run_inside TMPDIR="$H"; }
inside() {
	[ "$TMPDIR" = "$HOME" ] && echo "CONTROL-FAIL: the poisoned TMPDIR reached the sandbox"
	deny "$PROBE" write "$HOME/PWNED-tmpdir"
	control "$PROBE" write "$TMPDIR/sbx-esc-ok-$$"
	[ -e "$TMPDIR/sbx-esc-ok-$$" ] && reached "TMPDIR inside is writable"
	rm -f "$TMPDIR/sbx-esc-ok-$$"
}
