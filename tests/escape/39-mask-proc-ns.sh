DESC="around the masks through /proc: /proc/self/root, /proc/<pid>/root and setns(/proc/<pid>/ns/mnt) of outside processes (the launcher's parent and another)"
STEPS=1
EXPECT=blocked
setup() {
	spawn_outside sleep 300
}
inside() {
	deny cat "/proc/self/root$HOME/.ssh/id_rsa"
	deny cat "/proc/$OUT_PID/root$HOME/.ssh/id_rsa"
	deny cat "/proc/$PPID/root$HOME/.ssh/id_rsa"
	deny "$PROBE" setns "$OUT_PID" "$HOME/.ssh/id_rsa"
	deny "$PROBE" setns "$PPID" "$HOME/.ssh/id_rsa"
	deny nsenter -t "$OUT_PID" -m cat "$HOME/.ssh/id_rsa"
	control cat /proc/self/status
	[ -d "/proc/$OUT_PID" ] && reached "the outside process is visible"
}
