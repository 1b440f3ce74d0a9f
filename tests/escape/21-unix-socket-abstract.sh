DESC="connect to an outside listener on an abstract UNIX socket"
# Landlock's abstract-socket scope (ABI 6) blocks it; below ABI 6 only the
# seccomp socket(AF_UNIX) refusal does, which the default policy (network
# on) does not ask for: docs/limitations.md L5.
EXPECT=blocked
STEPS=1
[ "${SBX_ESC_ABI:-7}" -lt 6 ] && EXPECT=limitation
setup() {
	pass_var SOCK "@sbx-esc-abstract-$$"
	spawn_outside "$PROBE" listen "@sbx-esc-abstract-$$" "$TOK-abstract"
}
inside() {
	grep -q "@${SOCK#@}" /proc/net/unix 2>/dev/null && reached "the outside abstract socket is listed" || reached "the abstract name is known (not listed in this namespace)"
	if [ "$SBX_ESC_ABI" -lt 6 ]; then
		"$PROBE" connect "$SOCK" 2>&1 | grep -q SBX-CANARY &&
			limitation "below Landlock ABI 6 outside abstract sockets are reachable"
		return
	fi
	deny "$PROBE" connect "$SOCK"
}
