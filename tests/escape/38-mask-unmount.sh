DESC="taking the mask off \$HOME: umount, umount -l, mount --move, pivot_root, open_tree(OPEN_TREE_CLONE) of the parent mount with and without AT_RECURSIVE; each also in a new user + mount namespace"
EXPECT=blocked
inside() {
	for how in umount detach move pivot clone clone-rec; do
		deny "$PROBE" unmask $how "$HOME" .ssh/id_rsa
	done
	deny unshare -Urm sh -c "umount -l '$HOME' && cat '$HOME/.ssh/id_rsa'"
	deny unshare -Urm sh -c "mount --bind / /mnt && cat '/mnt$HOME/.ssh/id_rsa'"
	control ls "$HOME/proj"
}
