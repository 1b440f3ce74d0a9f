DESC="writes outside the writable roots: \$HOME, ~/.ssh, /home, system places, truncation"
EXPECT=blocked
STEPS=1
setup() {
	mkdir -p /mnt/esc-sys && chmod 0777 /mnt/esc-sys
}
inside() {
	deny "$PROBE" write "$HOME/PWNED-home"
	deny "$PROBE" write "$HOME/.ssh/PWNED-ssh"
	deny "$PROBE" write "$HOME/.ssh/authorized_keys"
	deny "$PROBE" write /home/PWNED-top
	deny "$PROBE" write /mnt/esc-sys/PWNED-sys
	deny truncate -s 0 "$HOME/notes.txt"
	deny mkdir "$HOME/.config"
	control "$PROBE" write ./ok
	control "$PROBE" write "$HOME/.omp/ok"
	[ -e ./ok ] && reached "writes in the workspace work"
}
verify() {
	[ -s "$H/notes.txt" ] && [ ! -e "$H/.ssh/authorized_keys" ] && [ ! -e "$H/.config" ]
}
