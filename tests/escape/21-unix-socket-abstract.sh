DESC="connect to an outside listener on an abstract UNIX socket"
EXPECT=blocked
setup() {
	pass_var SOCK "@sbx-esc-abstract-$$"
	spawn_outside "$PROBE" listen "@sbx-esc-abstract-$$" "$TOK-abstract"
}
inside() {
	deny "$PROBE" connect "$SOCK"
}
