DESC="the kernel keyrings: a secret in the inherited session keyring and in the user's keyring, read by id or found by search; a key planted in the user keyring"
EXPECT=blocked
STEPS=1
launch() {
	inside_cmd
	local ids=()
	[ "$ID" = user ] && ids=(setpriv --reuid=$USER_UID --regid=$USER_GID --clear-groups --)
	# the probe puts a key in a fresh session keyring and one in the user
	# keyring (removed afterwards), reads both back (the control), then
	# runs sbrun with their ids in SBX_KEY_IDS
	timeout 60 "${ids[@]}" env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$H" TERM=dumb LANG=C \
		OMP_SANDBOX_WORKSPACE="$H/proj" OMP_SANDBOX_PASS_ENV=SBX_KEY_IDS "${ABI_ENV[@]}" \
		"$PROBE" key-run sbx-esc-key "$TOK-key" "${INSIDE[@]}" </dev/null >>"$OUT" 2>&1
	echo "SBX-LAUNCH-EXIT: $?" >>"$OUT"
}
inside() {
	[ -n "${SBX_KEY_IDS:-}" ] || echo "CONTROL-FAIL: the key ids were not passed"
	deny "$PROBE" key-steal sbx-esc-key "${SBX_KEY_IDS:-}"
}
