DESC="TIOCLINUX on the terminal (under a pty), incl. high cmd bits"
EXPECT=blocked
STEPS=1
launch() { run_inside_pty; }
inside() {
	[ -t 0 ] || echo "CONTROL-FAIL: stdin is not a terminal"
	[ -t 0 ] && reached "stdin is the terminal"
	local out
	out=$("$PROBE" tioclinux 2>&1)
	printf '%s\n' "$out" | sed 's/^/    /'
	case $out in *accepted*) echo "ESCAPED: TIOCLINUX accepted" ;; esac
	[ "$(printf '%s\n' "$out" | grep -c 'errno 1)')" -eq 2 ] ||
		echo "CONTROL-FAIL: TIOCLINUX was not refused with EPERM by the filter"
}
