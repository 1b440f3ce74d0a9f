DESC="taking the mask off \$HOME: umount, umount -l, mount --move, pivot_root, open_tree(OPEN_TREE_CLONE) of the parent mount with and without AT_RECURSIVE; each also in a new user + mount namespace"
EXPECT=blocked
STEPS=8   # the unmask round in a new user namespace (6), userns-umount, userns-mount
inside() {
	for how in umount detach move pivot clone clone-rec; do
		deny "$PROBE" unmask $how "$HOME" .ssh/id_rsa
	done
	# unshare -r cannot write /proc/self/uid_map inside (a file write
	# Landlock refuses) and would stop there: the probe enters the new
	# namespaces without a map (full capabilities in them) and says so
	deny "$PROBE" userns-umount "$HOME" .ssh/id_rsa
	deny "$PROBE" userns-mount /mnt
	control ls "$HOME/proj"
}
