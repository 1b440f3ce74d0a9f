DESC="behind the egress proxy: AF_VSOCK (its port space is the host's, whatever the network namespace) and every other family a network namespace does not confine"
EXPECT=blocked
STEPS=1
setup() {
	# the kernel must offer AF_VSOCK outside, or the refusal below would be
	# the kernel's, not the filter's
	if ! out=$(as_id "$PROBE" vsock 2>&1); then
		echo "SBX-SKIP: AF_VSOCK is not available outside the sandbox here ($out)"
	fi
	EG_PROFILE=$(compile_profile egress-42 "include \"$ROOT/examples/omp.sbx\";
network off;
network allow \"example.invalid\";") || { echo "cannot compile the egress policy"; return 1; }
}
launch() {
	grep -q '^SBX-SKIP' "$OUT" && return 0
	PROFILE=$EG_PROFILE
	run_inside
}
inside() {
	# in the namespace: loopback exists, so AF_INET works (the control)
	control /usr/bin/python3 -c 'import socket; socket.socket(socket.AF_INET, socket.SOCK_STREAM).bind(("127.0.0.1", 0))'
	reached "AF_INET works behind the proxy"
	deny "$PROBE" vsock
	deny "$PROBE" families
}
