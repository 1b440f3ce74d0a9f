DESC="hard links to \$HOME files made from inside the sandbox"
EXPECT=blocked
STEPS=1
inside() {
	deny "$PROBE" link "$HOME/.ssh/id_rsa" hl-key
	deny "$PROBE" link "$HOME/notes.txt" hl-notes
	deny "$PROBE" link "$HOME/.aws/credentials" /tmp/hl-aws-$$
	deny cat hl-key
	control "$PROBE" link readme.txt hl-own
	[ -e hl-own ] && reached "hard links within the workspace work"
}
