DESC="new user and mount namespaces, then a bind mount of \$HOME into a readable place"
EXPECT=blocked
setup() {
	mkdir -p /mnt/esc-bind && chmod 0777 /mnt/esc-bind
}
inside() {
	deny "$PROBE" bind "$HOME" /mnt/esc-bind .ssh/id_rsa
	deny "$PROBE" bind "$HOME/.aws" "$PWD/src" credentials
	deny unshare -Urm sh -c "mount --bind '$HOME' /mnt/esc-bind && cat /mnt/esc-bind/notes.txt"
}
