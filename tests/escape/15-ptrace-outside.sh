DESC="ptrace attach to an outside process of the same user"
EXPECT=blocked
setup() {
	spawn_outside sleep 300
}
inside() {
	deny "$PROBE" ptrace "$OUT_PID"
	deny "$PROBE" ptrace "$PPID"
	deny cat "/proc/$OUT_PID/mem"
}
verify() {
	kill -0 "$OUT_PID" && ! grep -q '^TracerPid:[[:space:]]*[1-9]' "/proc/$OUT_PID/status"
}
