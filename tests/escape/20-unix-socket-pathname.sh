DESC="connect to an outside listener on a pathname UNIX socket"
EXPECT=blocked
setup() {
	mkdir -p /mnt/esc-sock && chmod 0777 /mnt/esc-sock
	spawn_outside "$PROBE" listen /mnt/esc-sock/agent.sock "$TOK-socket"
}
inside() {
	deny "$PROBE" connect /mnt/esc-sock/agent.sock
}
