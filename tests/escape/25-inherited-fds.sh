DESC="reading and writing through descriptors inherited from the launcher's parent"
EXPECT=blocked
STEPS=1
launch() {
	run_inside 5<"$H/.ssh/id_rsa" 6<"$H" 7>>"$H/notes.txt" 8<"$H/.aws/credentials"
}
inside() {
	reached "the launcher was given descriptors 5-8 (the key, \$HOME, notes, credentials)"
	deny "$PROBE" fdread 5
	deny "$PROBE" fdread 8
	deny ls /proc/self/fd/6/
	deny "$PROBE" read /proc/self/fd/6/notes.txt
	deny "$PROBE" fdwrite 7
}
verify() {
	! grep -q PWNED "$H/notes.txt"
}
