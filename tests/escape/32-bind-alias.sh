DESC="a bind mount of \$HOME that exists elsewhere before launch"
EXPECT=blocked
setup() {
	mkdir -p /mnt/esc-alias && mount --bind "$H" /mnt/esc-alias
}
inside() {
	deny cat /mnt/esc-alias/.ssh/id_rsa
	deny cat /mnt/esc-alias/notes.txt
	deny ls /mnt/esc-alias/
}
