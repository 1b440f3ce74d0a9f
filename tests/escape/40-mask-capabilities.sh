DESC="capabilities after the masks: none in any set, also as root and in the user namespace that owns the mount namespace; a new user namespace gains nothing"
EXPECT=blocked
inside() {
	control sh -c "[ \$(grep -cE '^Cap(Inh|Prm|Eff|Amb):[[:space:]]+0+\$' /proc/self/status) = 4 ]"
	# with masks the launcher held capabilities (root, or the owner of its
	# user namespace): the bounding set is dropped too
	[ "$MECH" = masks ] && control grep -qE '^CapBnd:[[:space:]]+0+$' /proc/self/status
	deny unshare -Urm sh -c "mount -t tmpfs x /tmp"
	deny unshare -Urm sh -c "cat '$HOME/.ssh/id_rsa'"
	deny unshare -Ur sh -c "echo '0 0 1' > /proc/self/uid_map; cat '$HOME/.ssh/id_rsa'"
}
