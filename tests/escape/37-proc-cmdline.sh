DESC="/proc/<pid>/cmdline of outside processes"
STEPS=1
EXPECT=limitation
setup() {
	spawn_outside sleep 301
}
inside() {
	[ -d "/proc/$OUT_PID" ] && reached "the outside process is visible"
	if tr '\0' ' ' <"/proc/$OUT_PID/cmdline" 2>/dev/null | grep -q 'sleep 301'; then
		limitation "command lines of outside processes are readable (secrets passed as arguments leak)"
	fi
}
