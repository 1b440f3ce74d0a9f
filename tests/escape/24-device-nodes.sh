DESC="creating block and character device nodes in writable places"
EXPECT=blocked
STEPS=1
inside() {
	deny "$PROBE" mknod ./disk b
	deny "$PROBE" mknod ./null c
	deny "$PROBE" mknod "$TMPDIR/disk-$$" b
	deny "$PROBE" mknod "$HOME/.omp/disk" b
	control mkfifo ./fifo
	[ -p fifo ] && reached "mknod of a FIFO works in the workspace"
}
