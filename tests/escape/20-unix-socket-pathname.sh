DESC="connect to an outside listener on a pathname UNIX socket"
# Landlock controls pathname UNIX sockets only from ABI 9; below it the
# only tool is refusing socket(AF_UNIX), which sbrun does when the policy
# turns the network off.  The default omp policy keeps the network on (as
# the original did), so agent sockets (ssh-agent, the D-Bus session bus,
# docker.sock) outside the sandbox stay reachable: docs/limitations.md L5.
EXPECT=limitation
STEPS=1
setup() {
	mkdir -p /mnt/esc-sock && chmod 0777 /mnt/esc-sock
	spawn_outside "$PROBE" listen /mnt/esc-sock/agent.sock "$TOK-socket"
}
inside() {
	[ -S /mnt/esc-sock/agent.sock ] && reached "the outside agent socket is there"
	if "$PROBE" connect /mnt/esc-sock/agent.sock 2>&1 | grep -q 'SBX-CANARY'; then
		limitation "outside pathname UNIX sockets are reachable with the network on"
	fi
}
