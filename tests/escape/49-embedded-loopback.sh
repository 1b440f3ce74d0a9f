DESC="behind the egress proxy, IPv6 forms that carry a loopback or private IPv4 address: IPv4-compatible ::127.0.0.1, SIIT ::ffff:0:7f00:1, NAT64 64:ff9b::7f00:1, 6to4 2002:7f00:1::, Teredo 2001:0:7f00:1::1 and 2001:0:0:0:0:0:80ff:fffe (client 127.0.0.1)"
EXPECT=blocked
STEPS=6
setup() {
	# every destination allowed by the rules, so only the internal-address
	# check stands between a literal and the host's loopback
	EG_PROFILE=$(compile_profile egress-49 "include \"$ROOT/examples/omp.sbx\";
network on;
network deny \"forbidden.invalid\";") || { echo "cannot compile the egress policy"; return 1; }
}
launch() {
	PROFILE=$EG_PROFILE
	run_inside
}
inside() {
	local a out
	for a in ::127.0.0.1 ::ffff:0:7f00:1 64:ff9b::7f00:1 2002:7f00:1:: 2001:0:7f00:1::1 2001::80ff:fffe; do
		out=$(/usr/bin/python3 - "$a" <<'PY'
import socket, sys
s = socket.create_connection(("127.0.0.1", 3128), timeout=10)
s.sendall(("CONNECT [%s]:22 HTTP/1.1\r\n\r\n" % sys.argv[1]).encode())
print(s.recv(4096).decode("latin-1").replace("\r\n", " | "))
PY
)
		echo "    [$a] $out"
		reached "CONNECT [$a]:22 sent through the proxy"
		case $out in
		*"403 Forbidden"*"an internal address"*) echo "blocked: [$a] refused as internal" ;;
		*) echo "ESCAPED: [$a] not classified as internal (${out:0:120})" ;;
		esac
	done
}
