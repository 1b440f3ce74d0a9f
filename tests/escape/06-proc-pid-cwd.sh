DESC="/proc/<pid>/cwd and /proc/<pid>/root of outside processes (the parent and another) sitting in \$HOME"
EXPECT=blocked
STEPS=1
setup() {
	spawn_outside bash -c 'cd "$1" && exec sleep 300' sh "$H"
}
launch() {
	cd "$H" && run_inside    # the launching parent's cwd is $HOME
}
inside() {
	[ -d "/proc/$OUT_PID" ] && reached "the outside process (cwd \$HOME) is visible"
	deny cat "/proc/$OUT_PID/cwd/.ssh/id_rsa"
	deny ls "/proc/$OUT_PID/cwd/"
	deny cat "/proc/$OUT_PID/root$HOME/notes.txt"
	deny cat "/proc/$PPID/cwd/.aws/credentials"
	deny cat "/proc/$PPID/cwd/notes.txt"
}
verify() {
	# not vacuous: the outside process really sits in $HOME
	[ "$(readlink "/proc/$OUT_PID/cwd")" = "$H" ]
}
