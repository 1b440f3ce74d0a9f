DESC="TIOCSTI keystroke injection into the terminal (under a pty), incl. high cmd bits"
EXPECT=blocked
STEPS=1
launch() { run_inside_pty; }
inside() {
	[ -t 0 ] || echo "CONTROL-FAIL: stdin is not a terminal"
	[ -t 0 ] && reached "stdin is the terminal"
	local out
	out=$("$PROBE" tiocsti 2>&1)
	printf '%s\n' "$out" | sed 's/^/    /'
	case $out in *injected*) echo "ESCAPED: TIOCSTI injected a character" ;; esac
	# EPERM is the seccomp filter's answer; the kernel itself would allow
	# it here (dev.tty.legacy_tiocsti=1, own controlling terminal) or say EIO.
	[ "$(printf '%s\n' "$out" | grep -c 'errno 1)')" -eq 2 ] ||
		echo "CONTROL-FAIL: TIOCSTI was not refused with EPERM by the filter"
}
