DESC="ending the egress proxy (and the trace supervisor) from inside: clients that close before the answer (SIGPIPE in splice), reset, half-close, and random abrupt closes and garbage (seeded)"
EXPECT=blocked
STEPS=10   # 5 batches, without and with --trace
setup() {
	UP_PORT=$((20000 + RANDOM % 20000))
	UP_LOG=/mnt/.esc-prof/upstream.log
	mkdir -p /mnt/.esc-prof && chmod 0755 /mnt/.esc-prof
	: >"$UP_LOG" && chown "$owner" "$UP_LOG"
	EG_PROFILE=$(compile_profile egress-41 "include \"$ROOT/examples/omp.sbx\";
network off;
network allow \"127.0.0.1:$UP_PORT\";") || { echo "cannot compile the egress policy"; return 1; }
	spawn_outside /usr/bin/python3 "$ROOT/tests/escape/upstream.py" "$UP_PORT" "$UP_LOG"
	pass_var UP_PORT "$UP_PORT"
	wait_for "(exec 3<>/dev/tcp/127.0.0.1/$UP_PORT) 2>/dev/null" 5 || { echo "the upstream server did not start"; return 1; }
}
launch() {
	PROFILE=$EG_PROFILE
	run_inside
	run_inside OMP_SANDBOX_TRACE=1
}
inside() {
	/usr/bin/python3 - "$UP_PORT" <<'PY'
import random, socket, struct, sys, time
port = int(sys.argv[1])
P = ("127.0.0.1", 3128)
def req(path="/big"):
    return ("GET http://127.0.0.1:%d%s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % (port, path, port)).encode()
def conn():
    return socket.create_connection(P, timeout=10)
def rst(s):
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    s.close()
# 1. the request, then close before the answer is read (the proxy's splice
#    into the closed socket raised SIGPIPE)
for i in range(30):
    s = conn(); s.sendall(req()); time.sleep(0.01 * (i % 4)); s.close()
print("REACHED: 30 clients closed before reading an 8 MiB answer", flush=True)
# 2. resets (RST) in the middle of the answer
for i in range(30):
    s = conn(); s.sendall(req()); s.recv(1000 * (i + 1)); rst(s)
print("REACHED: 30 clients reset in the middle of the answer", flush=True)
# 3. half-close after the request: the whole answer must still come
s = conn(); s.sendall(req()); s.shutdown(socket.SHUT_WR)
n = 0
while True:
    d = s.recv(1 << 20)
    if not d:
        break
    n += len(d)
s.close()
print("REACHED: half-closed client got %d bytes" % n, flush=True)
if n < 8 << 20:
    print("CONTROL-FAIL: a half-closed client did not get the whole answer")
# 4. tunnels: CONNECT, then abrupt closes and resets at every stage
for i in range(20):
    s = conn()
    s.sendall(("CONNECT 127.0.0.1:%d HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % (port, port)).encode())
    if i % 2:
        s.recv(100)
        s.sendall(req("/big")[: 10 + i])
    rst(s) if i % 3 else s.close()
print("REACHED: 20 tunnels closed or reset mid-way", flush=True)
# 5. seeded random: partial heads, garbage, NULs, closes and resets at random
rnd = random.Random(29)
for i in range(200):
    s = conn()
    kind = rnd.randrange(5)
    if kind == 0:
        s.sendall(req()[: rnd.randrange(1, 60)])
    elif kind == 1:
        s.sendall(bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 300))))
    elif kind == 2:
        s.sendall(req()); s.recv(rnd.randrange(1, 70000))
    elif kind == 3:
        s.sendall(req()); s.shutdown(socket.SHUT_WR)
    else:
        s.sendall(b"GET http://127.0.0.1:%d/ HTTP/1.1\r\nHost: 127.0.0.1\0:%d\r\n\r\n" % (port, port))
    rst(s) if rnd.randrange(2) else s.close()
print("REACHED: 200 random abrupt clients", flush=True)
# the proxy is still there and whole
s = conn(); s.sendall(req("/hello")); d = s.recv(1000); s.close()
if b"hello from upstream" not in d:
    print("CONTROL-FAIL: the proxy no longer answers: %r" % d[:200])
else:
    print("proxy alive after the abuse")
PY
	echo "SBX-INSIDE-DONE"
}
verify() {
	# the launcher ended as the command did (0), not by a signal, both times
	[ "$(grep -c '^SBX-LAUNCH-EXIT: 0$' "$OUT")" = 2 ] || { echo "the launcher did not exit 0 twice"; return 1; }
	[ "$(grep -c '^SBX-INSIDE-DONE' "$OUT")" = 2 ] || { echo "the sandboxed command was cut short"; return 1; }
}
