DESC="/proc/<pid>/environ of outside processes holding a secret (the launcher's parent and another)"
EXPECT=blocked
STEPS=1
setup() {
	spawn_outside env SBX_OUTSIDE_SECRET="$TOK-outside" sleep 300
}
inside() {
	[ -e "/proc/$OUT_PID/environ" ] && reached "the outside process's environ file is there"
	deny cat "/proc/$OUT_PID/environ"
	deny cat "/proc/$PPID/environ"
	deny cat "/proc/$OUT_PID/auxv"
	deny cat "/proc/$OUT_PID/maps"
}
