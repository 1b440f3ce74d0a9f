DESC="terminal controls in the text trace: C1 controls (U+009B CSI, U+009D OSC, U+0085 NEL), a raw 0x9b byte and bidi overrides in a denied path; the socket OMP_SANDBOX_NETWORK=off refuses stays refused under the trace (the kernel filter's, unreported)"
EXPECT=blocked
STEPS=2
launch() {
	run_inside OMP_SANDBOX_TRACE=1 OMP_SANDBOX_NETWORK=off
}
inside() {
	# denied creations whose names carry the controls (the tool's own error
	# messages are thrown away: only the trace speaks)
	local n
	for n in $'\xc2\x9b31mCSI' $'\xc2\x9d0;title\x07OSC' $'\xc2\x85NEL' $'\x9bRAW' $'\xe2\x80\xaeRLO'; do
		touch "/etc/sbx-esc-$n" 2>/dev/null && echo "ESCAPED: created /etc/sbx-esc-$n"
	done
	reached "denied creations with C1 controls in their names"
	/usr/bin/python3 -c 'import socket; socket.socket()' 2>/dev/null && echo "ESCAPED: a socket under OMP_SANDBOX_NETWORK=off"
	reached "a socket under OMP_SANDBOX_NETWORK=off"
}
verify() {
	if LC_ALL=C grep -q $'\xc2[\x80-\x9f]\|\x9b\|\xe2\x80\xae' "$OUT"; then
		echo "a raw C1 control or bidi override reached the output:"
		LC_ALL=C grep -a $'\xc2[\x80-\x9f]\|\x9b\|\xe2\x80\xae' "$OUT" | od -c | head -5
		return 1
	fi
	local want
	for want in 'sbx-esc-\u{009b}31mCSI' 'sbx-esc-\u{009d}0;title\x07OSC' 'sbx-esc-\u{0085}NEL' 'sbx-esc-\x9bRAW' 'sbx-esc-\u{202e}RLO'; do
		grep -qF "denied create /etc/$want" "$OUT" || { echo "no escaped trace line for $want"; return 1; }
	done
	# traced, the refusal is the kernel filter's (docs/trace.md, "What the
	# trace guarantees"): not reported, and never with a "FILE:0" origin
	grep -q 'OMP_SANDBOX_NETWORK=off:0' "$OUT" && { echo "the origin reads OMP_SANDBOX_NETWORK=off:0"; return 1; }
	return 0
}
