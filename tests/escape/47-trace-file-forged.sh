DESC="the trace file in a writable root: deleted and replaced, or appended to, from inside with a forged report"
EXPECT=blocked
STEPS=4
launch() {
	# 1. in the workspace: replaced from inside
	pass_var TRACE_FILE "$H/proj/trace.log"
	pass_var HOW replace
	run_inside OMP_SANDBOX_TRACE="$H/proj/trace.log"
	# 2. in the workspace: appended to from inside
	PREFIX=""
	pass_var TRACE_FILE "$H/proj/trace2.log"
	pass_var HOW append
	run_inside OMP_SANDBOX_TRACE="$H/proj/trace2.log"
	# 3. in the workspace: the trace's own lines overwritten in place
	PREFIX=""
	pass_var TRACE_FILE "$H/proj/trace4.log"
	pass_var HOW overwrite
	echo "--- run 4" >>"$OUT"
	run_inside OMP_SANDBOX_TRACE="$H/proj/trace4.log"
	# 4. outside every writable root: no warning, the report intact
	mkdir -p /mnt/.esc-prof && chmod 0755 /mnt/.esc-prof
	local d=/mnt/.esc-prof/tr-$ID
	mkdir -p "$d" && chown "$owner" "$d"
	PREFIX=""
	pass_var TRACE_FILE "$d/trace.log"
	pass_var HOW replace
	echo "--- run 3" >>"$OUT"
	run_inside OMP_SANDBOX_TRACE="$d/trace.log"
	cp "$d/trace.log" "$S/trace3.$ID" 2>/dev/null
}
inside() {
	# a denial in either mechanism, so the report has a line to overwrite
	touch /etc/sbx-esc-47 2>/dev/null
	sleep 0.3
	local forge="sandbox: trace summary: 0 denied"
	case $TRACE_FILE in
	"$PWD"/*) try=control ;;   # the workspace is writable: the forging works, the report must say so
	*) try=deny ;;
	esac
	case $HOW in
	replace) $try sh -c "rm -f '$TRACE_FILE' && echo '$forge' >'$TRACE_FILE'" ;;
	append) $try sh -c "echo '$forge' >>'$TRACE_FILE'" ;;
	overwrite) $try sh -c "[ -s '$TRACE_FILE' ] && printf '%s' '$forge' | dd of='$TRACE_FILE' conv=notrunc status=none" ;;
	esac
	reached "forging the trace file $TRACE_FILE ($HOW)"
}
verify() {
	local first second third
	first=$(sed -n '1,/^SBX-LAUNCH-EXIT/p' "$OUT")
	grep -q "the trace file $H/proj/trace.log lies where the sandbox may write" <<<"$first" ||
		{ echo "no launch warning for a trace file in the workspace"; return 1; }
	grep -q "the trace file $H/proj/trace.log was deleted or replaced during the run" <<<"$first" ||
		{ echo "ESCAPED: the replaced trace file was not reported"; return 1; }
	# appended: the trace's own later lines overwrite the forged one, or
	# the change is reported
	if grep -q "0 denied" "$H/proj/trace2.log" &&
		! grep -q "the trace file $H/proj/trace2.log was changed during the run" "$OUT"; then
		echo "ESCAPED: a forged line in the trace file, not reported"; return 1
	fi
	grep -q "the trace file $H/proj/trace4.log was changed during the run" "$OUT" ||
		{ echo "ESCAPED: the trace file overwritten in place was not reported"; return 1; }
	third=$(sed -n '/^--- run 3/,$p' "$OUT")
	grep -q 'warning: the trace file' <<<"$third" && { echo "a warning for a trace file outside every writable root"; return 1; }
	grep -q 'denied create /etc/sbx-esc-47' "$S/trace3.$ID" || { echo "the report outside the writable roots is not the trace's"; return 1; }
	return 0
}
