DESC="a bind mount of \$HOME that exists elsewhere before launch"
EXPECT=blocked
STEPS=1
setup() {
	mkdir -p /mnt/esc-alias && mount --bind "$H" /mnt/esc-alias
}
inside() {
	[ -d /mnt/esc-alias ] && reached "the bind alias of \$HOME exists"
	deny cat /mnt/esc-alias/.ssh/id_rsa
	deny cat /mnt/esc-alias/notes.txt
	deny ls /mnt/esc-alias/
}
