DESC="signals to outside processes of the same user"
EXPECT=blocked
setup() {
	spawn_outside sleep 300
}
inside() {
	deny "$PROBE" kill "$OUT_PID"
	deny kill -TERM "$OUT_PID"
}
verify() {
	kill -0 "$OUT_PID"   # the outside process must still be alive
}
