DESC="capabilities after the masks: none in any set, also as root and in the user namespace that owns the mount namespace; a new user namespace gains nothing"
EXPECT=blocked
STEPS=2
inside() {
	control sh -c "[ \$(grep -cE '^Cap(Inh|Prm|Eff|Amb):[[:space:]]+0+\$' /proc/self/status) = 4 ]"
	# with masks the launcher held capabilities (root, or the owner of its
	# user namespace): the bounding set is dropped too
	[ "$MECH" = masks ] && control grep -qE '^CapBnd:[[:space:]]+0+$' /proc/self/status
	# in a new user namespace (no uid_map: writing it is refused inside,
	# and the probe does not need it) the process holds every capability
	# of that namespace; it gains nothing outside it
	deny "$PROBE" userns-mount /tmp
	deny "$PROBE" userns-read "$HOME/.ssh/id_rsa"
	grep -q 'REACHED: .*CapEff:[[:space:]]*0*[1-9a-f]' <<<"$("$PROBE" userns-read /dev/null 2>&1)" ||
		echo "CONTROL-FAIL: no capability in the new user namespace: the check above proves nothing"
}
