DESC="ptrace attach to an outside process of the same user"
EXPECT=blocked
STEPS=1
setup() {
	spawn_outside sleep 300
}
inside() {
	[ -d "/proc/$OUT_PID" ] && reached "the outside process is visible"
	deny "$PROBE" ptrace "$OUT_PID"
	deny "$PROBE" ptrace "$PPID"
	deny cat "/proc/$OUT_PID/mem"
}
verify() {
	kill -0 "$OUT_PID" && ! grep -q '^TracerPid:[[:space:]]*[1-9]' "/proc/$OUT_PID/status"
}
