DESC="HOME pointed elsewhere before launch, to move the read-deny away from the real home"
EXPECT=blocked
STEPS=1
NO_INSIDE=1
launch() {
	mkdir -p /mnt/esc-fakehome && chmod 0777 /mnt/esc-fakehome
	pass_var REALHOME "$H"
	run_inside HOME=/mnt/esc-fakehome
	mv "$OUT" "$OUT.refused"
	: >"$OUT"
	run_inside HOME=/mnt/esc-fakehome OMP_SANDBOX_SKIP_HOME_VERIFY=1
}
inside() {
	[ "$HOME" = /mnt/esc-fakehome ] && echo "CONTROL-FAIL: the poisoned HOME reached the sandbox"
	[ "$HOME" = "$REALHOME" ] || echo "CONTROL-FAIL: HOME inside is $HOME, not the real home"
	[ "$HOME" = "$REALHOME" ] && reached "HOME inside is the real home"
	deny cat "$REALHOME/.ssh/id_rsa"
	deny cat "$REALHOME/notes.txt"
}
verify() {
	# without the override: refused before anything runs, naming HOME
	local rc
	rc=$(sed -n 's/^SBX-LAUNCH-EXIT: //p' "$OUT.refused")
	cat "$OUT.refused"
	grep -q '^SBX-INSIDE-RAN' "$OUT.refused" && { echo "poisoned HOME was accepted"; return 1; }
	[ "$rc" != 0 ] && grep -qi 'home' "$OUT.refused" || { echo "no refusal naming HOME"; return 1; }
	# with the override: it ran, under the real home
	grep -q '^SBX-INSIDE-RAN' "$OUT" || { echo "override launch did not run"; return 1; }
}
