DESC="another virtual host behind an allowed address: plain HTTP in a CONNECT tunnel with another Host, pipelined requests (in a tunnel and after a proxy request), TLS without SNI, bare-LF and NUL heads, an upgrade that was not granted, C1 controls in a request target"
EXPECT=blocked
STEPS=11
setup() {
	UP_PORT=$((20000 + RANDOM % 20000))
	UP_LOG=/mnt/.esc-prof/upstream.log
	mkdir -p /mnt/.esc-prof && chmod 0755 /mnt/.esc-prof
	: >"$UP_LOG" && chown "$owner" "$UP_LOG"
	EG_PROFILE=$(compile_profile egress-43 "include \"$ROOT/examples/omp.sbx\";
network off;
network allow \"localhost:$UP_PORT\" \"127.0.0.1:$UP_PORT\";") || { echo "cannot compile the egress policy"; return 1; }
	spawn_outside /usr/bin/python3 "$ROOT/tests/escape/upstream.py" "$UP_PORT" "$UP_LOG"
	pass_var UP_PORT "$UP_PORT"
	wait_for "(exec 3<>/dev/tcp/127.0.0.1/$UP_PORT) 2>/dev/null" 5 || { echo "the upstream server did not start"; return 1; }
}
launch() {
	PROFILE=$EG_PROFILE
	run_inside
}
inside() {
	/usr/bin/python3 - "$UP_PORT" <<'PY'
import socket, sys
port = int(sys.argv[1])
A = "localhost:%d" % port
def conn():
    return socket.create_connection(("127.0.0.1", 3128), timeout=5)
def readall(s):
    d = b""
    try:
        while True:
            b = s.recv(65536)
            if not b:
                break
            d += b
    except socket.timeout:
        d += b"<TIMEOUT>"
    return d
def tunnel(target=A):
    s = conn()
    s.sendall(("CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n" % (target, target)).encode())
    r = b""
    while b"\r\n\r\n" not in r:
        r += s.recv(1)
    if b" 200 " not in r.split(b"\r\n")[0]:
        print("CONTROL-FAIL: CONNECT %s: %r" % (target, r))
    return s
def get(host, path="/"):
    return ("GET %s HTTP/1.1\r\nHost: %s\r\n\r\n" % (path, host)).encode()
def answers(d):
    return d.count(b"hello from upstream")

# controls: HTTP inside a tunnel to the allowed host, pipelined, is served
s = tunnel(); s.sendall(get(A) + get(A)); s.shutdown(socket.SHUT_WR); d = readall(s)
if answers(d) != 2:
    print("CONTROL-FAIL: two pipelined requests to the tunnel's host: %r" % d[:300])
print("REACHED: plain HTTP in a tunnel to the allowed host is served (%d answers)" % answers(d))
s = tunnel(); s.sendall(get("forbidden.test")); s.shutdown(socket.SHUT_WR); d = readall(s)
print("REACHED: tunnel open, a request for Host forbidden.test sent")
if answers(d):
    print("ESCAPED: a request for another Host inside a tunnel was answered")
s = tunnel(); s.sendall(get(A) + get("forbidden.test")); s.shutdown(socket.SHUT_WR); d = readall(s)
print("REACHED: tunnel open, a request for forbidden.test pipelined after an allowed one (%d answers)" % answers(d))
if answers(d) > 1:
    print("ESCAPED: a pipelined request for another Host was answered")
s = tunnel(); s.sendall(b"GET / HTTP/1.0\r\n\r\n"); s.shutdown(socket.SHUT_WR); d = readall(s)
print("REACHED: a request without Host in a tunnel")
if answers(d):
    print("ESCAPED: a request without Host (the server's default site) was answered")
up = b"GET / HTTP/1.1\r\nHost: %s\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n" % A.encode()
s = tunnel(); s.sendall(up + get("forbidden.test")); s.shutdown(socket.SHUT_WR); d = readall(s)
print("REACHED: an upgrade the server did not grant, then a request for forbidden.test (%d answers)" % answers(d))
if answers(d) > 1:
    print("ESCAPED: a request after an ungranted upgrade was answered")
# plain proxy request, then an origin-form request for another host
s = conn()
s.sendall(("GET http://%s/ HTTP/1.1\r\nHost: %s\r\n\r\n" % (A, A)).encode() + get("forbidden.test"))
s.shutdown(socket.SHUT_WR); d = readall(s)
print("REACHED: a proxy request with a pipelined origin-form request for forbidden.test (%d answers)" % answers(d))
if answers(d) != 1:
    print("ESCAPED: %d answers on one proxy connection" % answers(d))
# a bare LF hides a second Host from a strict reader
s = conn()
s.sendall(("GET http://%s/ HTTP/1.1\r\nHost: %s\r\nX: a\nHost: forbidden.test\r\n\r\n" % (A, A)).encode())
d = readall(s)
print("REACHED: a head with a bare LF: %r" % d.split(b"\r\n")[0])
if not d.startswith(b"HTTP/1.1 400"):
    print("ESCAPED: a head with a bare LF was not refused")
# a NUL byte in a head: 400 at once (it used to hang)
s = conn()
s.sendall(("GET http://%s/ HTTP/1.1\r\nHost: %s\r\nX: a\0b\r\n\r\n" % (A, A)).encode())
d = readall(s)
print("REACHED: a head with a NUL byte: %r" % d.split(b"\r\n")[0])
if not d.startswith(b"HTTP/1.1 400"):
    print("ESCAPED: a NUL in a head was not answered 400 (%r)" % d[:80])
# TLS without a server name: refused for a name, allowed for an IP literal
hello = bytes.fromhex("16030100310100002d0303" + "11" * 32 + "000002002f0100")
hello = hello[:3] + len(hello[5:]).to_bytes(2, "big") + hello[5:]
hello = hello[:6] + len(hello[9:]).to_bytes(3, "big") + hello[9:]
s = tunnel(); s.sendall(hello); d = readall(s)
print("REACHED: a ClientHello without SNI in a tunnel to %s" % A)
s = tunnel("127.0.0.1:%d" % port); s.sendall(hello); s.shutdown(socket.SHUT_WR); readall(s)
print("REACHED: a ClientHello without SNI in a tunnel to the IP literal (allowed)")
# C1 controls in a request target: the proxy's refusal line escapes them
s = conn(); s.sendall(b"CONNECT \xc2\x9b31mevil\x9b.test:443 HTTP/1.1\r\n\r\n"); readall(s)
print("REACHED: CONNECT with C1 controls in the target")
PY
}
verify() {
	cat "$UP_LOG"
	grep -q 'forbidden' "$UP_LOG" && { echo "ESCAPED: the upstream saw a request for forbidden.test"; return 1; }
	grep -q "REQ GET / HTTP/1.0 host=$" "$UP_LOG" && { echo "ESCAPED: the upstream saw a request without Host"; return 1; }
	# no SNI: refused for the name (one RAW only: the IP literal's)
	[ "$(grep -c '^RAW ' "$UP_LOG")" = 1 ] || { echo "the ClientHello without SNI: expected exactly one to arrive (the IP literal's)"; return 1; }
	grep -q 'without a server name (SNI)' "$OUT" || { echo "no refusal line for TLS without SNI"; return 1; }
	# the refusal line of the C1 target is escaped
	grep -q 'CONNECT \\u{009b}31mevil\\x9b.test:443 refused' "$OUT" || { echo "the C1 target's refusal line is missing or not escaped"; return 1; }
	if LC_ALL=C grep -q $'\xc2\x9b\|\x9b' "$OUT"; then echo "a raw C1 byte reached the output"; return 1; fi
	[ "$(grep -c "REQ GET / HTTP/1.1 host=localhost:$UP_PORT" "$UP_LOG")" -ge 4 ] || { echo "the allowed requests did not all arrive"; return 1; }
}
