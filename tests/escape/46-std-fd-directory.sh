DESC="a directory (or an O_PATH handle) inherited as descriptor 0, 1 or 2: openat(0, \".ssh/id_rsa\") walks the tree outside the masks and the complement"
EXPECT=blocked
STEPS=4
NO_INSIDE=1   # the launch is refused: the command never runs
launch() {
	inside_cmd
	local ids=()
	[ "$ID" = user ] && ids=(setpriv --reuid=$USER_UID --regid=$USER_GID --clear-groups --)
	local envs=(env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$H" TERM=dumb LANG=C OMP_SANDBOX_WORKSPACE="$H/proj" "${ABI_ENV[@]}")
	# the control: outside, the inherited directory reads the key
	local ctl
	ctl=$(timeout 10 "${ids[@]}" "$PROBE" fdwalk 0 .ssh/id_rsa <"$H" 2>&1)
	if [[ $ctl == *"BEGIN OPENSSH"* ]]; then
		echo "REACHED: outside, openat(0) on the inherited home reads the key" >>"$OUT"
	fi
	local fd
	for fd in 0 1 2; do
		local redir="$fd<$(printf %q "$H")"
		echo "REACHED: sbrun started with the home directory on descriptor $fd" >>"$OUT"
		timeout 60 "${ids[@]}" bash -c "$(printf '%q ' "${envs[@]}" "${INSIDE[@]}") $redir" \
			</dev/null >>"$OUT.$fd" 2>&1
		local rc=$?
		# stdout or stderr is the directory: the messages go nowhere; the
		# status says it
		grep -v "$TOK" "$OUT.$fd" >>"$OUT"
		echo "SBX-LAUNCH-EXIT-$fd: $rc" >>"$OUT"
		rm -f "$OUT.$fd"
	done
}
verify() {
	grep -q '^SBX-INSIDE-RAN' "$OUT" && { echo "ESCAPED: the command ran with a directory on a standard descriptor"; return 1; }
	for fd in 0 1 2; do
		grep -q "^SBX-LAUNCH-EXIT-$fd: 78$" "$OUT" || { echo "descriptor $fd: not refused with 78"; return 1; }
	done
	grep -q 'standard input (descriptor 0) is a directory' "$OUT" || { echo "no clear message for descriptor 0"; return 1; }
}
