DESC="/proc/<pid>/fd of an outside process holding ~/.ssh/id_rsa and \$HOME open"
EXPECT=blocked
STEPS=1
setup() {
	spawn_outside bash -c 'exec 3<"$1/.ssh/id_rsa" 4<"$1"; exec sleep 300' sh "$H"
}
inside() {
	[ -d "/proc/$OUT_PID" ] && reached "the outside process holding the key is visible"
	deny cat "/proc/$OUT_PID/fd/3"
	deny ls "/proc/$OUT_PID/fd/4/"
	deny cat "/proc/$OUT_PID/fd/4/notes.txt"
	deny "$PROBE" read "/proc/$OUT_PID/fd/4/.aws/credentials"
}
verify() {
	# not vacuous: the outside process really holds the key and $HOME
	[ "$(readlink "/proc/$OUT_PID/fd/3")" = "$H/.ssh/id_rsa" ] && [ "$(readlink "/proc/$OUT_PID/fd/4")" = "$H" ]
}
