DESC="new user and mount namespaces, then a bind mount of \$HOME into a readable place"
EXPECT=blocked
STEPS=2
setup() {
	mkdir -p /mnt/esc-bind && chmod 0777 /mnt/esc-bind
}
inside() {
	deny "$PROBE" bind "$HOME" /mnt/esc-bind .ssh/id_rsa
	deny "$PROBE" bind "$HOME/.aws" "$PWD/src" credentials
	# (unshare -Urm stops at writing /proc/self/uid_map, a file write
	# Landlock refuses; the probe enters its namespaces without a map and
	# prints REACHED once in them)
}
