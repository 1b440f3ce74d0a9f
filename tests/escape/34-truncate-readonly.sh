DESC="open(O_RDONLY|O_TRUNC) on a file that is only readable (a Landlock ABI <= 2 hole)"
EXPECT=blocked
STEPS=1
setup() {
	printf 'keep me\n' >/mnt/esc-ro && chmod 0666 /mnt/esc-ro
}
inside() {
	control cat /mnt/esc-ro
	cat /mnt/esc-ro >/dev/null 2>&1 && reached "the file is readable"
	deny "$PROBE" trunc-ro /mnt/esc-ro
}
verify() {
	[ "$(cat /mnt/esc-ro)" = "keep me" ]
}
