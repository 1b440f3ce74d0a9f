DESC="the terminal after the session: a process left behind (SIGTTOU, SIGHUP ignored) takes the terminal with tcsetpgrp once the command has exited; without a terminal on 0-2, /dev/tty (the controlling terminal) is opened"
EXPECT=blocked
STEPS=3
launch() {
	# the lingering process is looked for with pgrep: without it nothing
	# here could see one (scripts/deps.sh installs procps)
	if ! command -v pgrep >/dev/null; then
		echo "SBX-SKIP: pgrep (procps) is missing: a process left behind could not be found" >>"$OUT"
		return
	fi
	mkdir -p "$H/proj/kept" && chown "$owner" "$H/proj/kept"
	# 1. under a pty: the lingering process must be gone when sbrun returns
	#    (looked for by its command line: under the write gate a process
	#    that outlives the gate's supervisor cannot create its marker)
	local left
	pass_var LINGER_DIR "$H/proj"
	run_inside_pty
	left=$(pgrep -f "tty-linger $H/proj 3" | tr '\n' ' ')
	[ -n "$left" ] && echo "ESCAPED: processes of the tree outlived the command: $left" >>"$OUT"
	# 2. the same with OMP_SANDBOX_KEEP_BACKGROUND=1: it must survive (the
	#    control: the default above is what ended it); then it is ended here
	PREFIX=""
	pass_var LINGER_DIR "$H/proj/kept"
	run_inside_pty OMP_SANDBOX_KEEP_BACKGROUND=1
	left=$(pgrep -f "tty-linger $H/proj/kept 3")
	[ -n "$left" ] && echo "kept-alive: $(echo $left)" >>"$OUT"
	local p
	for p in $left; do kill -KILL "$p" 2>/dev/null; done
	# 3. a controlling terminal, but none on 0-2: the tree gets a session of
	#    its own, so /dev/tty does not open
	PREFIX=""
	pass_var LINGER_DIR ""
	inside_cmd
	local ids=() cmd
	[ "$ID" = user ] && ids=(setpriv --reuid=$USER_UID --regid=$USER_GID --clear-groups --)
	cmd=$(printf '%q ' "$PROBE" tty-open)
	echo "outside: $(timeout 20 "${ids[@]}" script -qec "$cmd </dev/null 2>&1" /dev/null </dev/null)" >>"$OUT"
	cmd=$(printf '%q ' env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$H" TERM=dumb LANG=C \
		OMP_SANDBOX_WORKSPACE="$H/proj" "${ABI_ENV[@]}" "${INSIDE[@]}")
	local tmp=/mnt/.esc-prof/out-44
	mkdir -p /mnt/.esc-prof && chmod 0755 /mnt/.esc-prof
	: >"$tmp" && chown "$owner" "$tmp"
	timeout 60 "${ids[@]}" script -qec "$cmd </dev/null >>$tmp 2>&1" /dev/null </dev/null >/dev/null 2>&1
	local rc=$?
	cat "$tmp" >>"$OUT"
	echo "SBX-LAUNCH-EXIT: $rc" >>"$OUT"
	sleep 3.5   # past the lingering process's wake-up: its markers, if any, are written
}
inside() {
	if [ -n "$LINGER_DIR" ]; then
		[ -t 0 ] || echo "CONTROL-FAIL: stdin is not a terminal"
		setsid -f "$PROBE" tty-linger "$LINGER_DIR" 3 </dev/null >/dev/null 2>&1 ||
			"$PROBE" tty-linger "$LINGER_DIR" 3 </dev/null >/dev/null 2>&1 &
		sleep 0.2
		reached "a process left behind in $LINGER_DIR (it ignores SIGTTOU and SIGHUP)"
	else
		[ -t 0 ] && echo "CONTROL-FAIL: stdin is a terminal"
		reached "no terminal on 0-2"
		deny "$PROBE" tty-open
	fi
}
verify() {
	grep -q '^outside: open /dev/tty: ok' "$OUT" || { echo "control: /dev/tty did not open outside the sandbox under script"; return 1; }
	grep -q '^kept-alive: [0-9]' "$OUT" || { echo "control: with OMP_SANDBOX_KEEP_BACKGROUND=1 the process did not survive"; return 1; }
	if [ -e "$H/proj/LINGER-ALIVE" ] || [ -e "$H/proj/LINGER-STOLE-TTY" ]; then
		echo "ESCAPED: a process of the tree outlived the command"
		return 1
	fi
}
