DESC="signals to outside processes of the same user"
# Landlock's signal scope (ABI 6) blocks them; below ABI 6 nothing does, and
# the default policy allows signals (docs/limitations.md L11): there the
# test asserts the documented behaviour.
EXPECT=blocked
STEPS=1
[ "${SBX_ESC_ABI:-7}" -lt 6 ] && EXPECT=limitation
setup() {
	spawn_outside sleep 300
}
inside() {
	[ -d "/proc/$OUT_PID" ] && reached "the outside process is visible"
	if [ "$SBX_ESC_ABI" -lt 6 ]; then
		"$PROBE" kill "$OUT_PID" >/dev/null 2>&1 &&
			limitation "below Landlock ABI 6 signals reach outside processes"
		return
	fi
	deny "$PROBE" kill "$OUT_PID"
	deny kill -TERM "$OUT_PID"
}
verify() {
	[ "$SBX_ESC_ABI" -lt 6 ] && return 0
	kill -0 "$OUT_PID"   # the outside process must still be alive
}
