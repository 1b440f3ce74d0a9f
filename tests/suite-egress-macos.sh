#!/usr/bin/env bash
# suite-egress-macos.sh: host rules through the macOS launcher (docs/egress.md,
# "macOS"; unverified on macOS).  The test build's sandbox-exec stand-in
# (tests/helpers/fake_sandbox_exec.c) records argv, environment and profile
# and then runs the command UNCONFINED: what is checked here is the
# launcher's side - the proxy sbrun serves on a free loopback port, the
# -D EGRESS_PROXY=localhost:PORT it passes, the proxy variables, the
# decisions and their reasons, the exit status - not Seatbelt.  Servers
# listen on 127.0.0.1 only.  Exit 0 pass, 77 skip, 1 fail.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-build}
case $B in /*) ;; *) B=$root/$B ;; esac
if [ "${SBX_SUITE_INSIDE:-}" != 1 ]; then
	exec /usr/bin/env SBX_SUITE_INSIDE=1 B="$B" "$root/tests/lib/fakehome.sh" -- \
		/bin/bash "$root/tests/suite-egress-macos.sh"
fi
SBT=$B/test-bin/sbrun
SBC=$B/bin/sbc
for f in "$SBT" "$SBC" /usr/bin/curl /usr/bin/python3; do
	[ -x "$f" ] || { echo "SKIP: $f not built or not installed"; exit 77; }
done
H=/home/tester
T=$(mktemp -d /tmp/sbx-egress-macos.XXXXXX)
spid=
cleanup() { [ -n "$spid" ] && kill "$spid" 2> /dev/null; rm -rf "$T"; }
trap cleanup EXIT
mkdir -p "$H/proj" "$H/.omp"
npass=0 nfail=0
pass() { echo "PASS: $*"; npass=$((npass + 1)); }
fail() { echo "FAIL: $*"; nfail=$((nfail + 1)); }

# a loopback HTTP server: GET /hello -> "hello"
/usr/bin/python3 - "$T/port" > "$T/srv.log" 2>&1 <<'EOF' &
import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = b"hello\n"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *a):
        pass
s = http.server.HTTPServer(("127.0.0.1", 0), H)
open(sys.argv[1], "w").write(str(s.server_port))
s.serve_forever()
EOF
spid=$!
for _ in $(seq 1 100); do [ -s "$T/port" ] && break; sleep 0.05; done
port=$(cat "$T/port" 2> /dev/null)
[ -n "$port" ] || { echo "FAIL: the loopback server did not start: $(cat "$T/srv.log")"; exit 1; }

cat > "$T/mac.sbx" <<EOF
include "$root/examples/omp.sbx";
network off;
network allow "127.0.0.1";
EOF
"$SBC" -o "$T/mac.sb" "$T/mac.sbx" 2> /dev/null || { echo "FAIL: compile the test policy"; exit 1; }

rec=$H/proj/fake-sandbox-exec.rec
run() {
	rm -f "$rec"
	out=$(cd "$H/proj" && /usr/bin/env -i PATH=/usr/bin:/bin HOME=$H TERM=dumb SB_TEST_PLATFORM=macos \
		"$SBT" "$T/mac.sb" "$@" 2> "$T/err")
	rc=$?
	err=$(cat "$T/err")
}
ok() { # DESC CONDITION...
	local d=$1; shift
	if "$@"; then pass "$d"; else fail "$d (exit $rc; out: ${out:0:300}; err: ${err:0:400})"; fi
}
field() { sed -n "s/^$1=//p" "$rec" | head -1; }

run /usr/bin/curl -sS "http://127.0.0.1:$port/hello"
ok "macOS: curl to an allowed host through the launcher's proxy" eval '[ $rc = 0 ] && [ "$out" = hello ]'
proxy_define=$(sed -n 's/^define=EGRESS_PROXY=//p' "$rec")
proxy_env=$(sed -n 's/^env=HTTP_PROXY=//p' "$rec")
pport=${proxy_define#localhost:}
ok "macOS: -D EGRESS_PROXY=localhost:PORT, a free port (not 3128), the same in HTTP_PROXY" eval \
	'[[ $proxy_define =~ ^localhost:[0-9]+$ ]] && [ "$proxy_env" = "http://127.0.0.1:$pport" ] && [ "$pport" != 3128 ]'
for v in HTTPS_PROXY ALL_PROXY http_proxy https_proxy all_proxy; do
	[ "$(sed -n "s/^env=$v=//p" "$rec")" = "http://127.0.0.1:$pport" ] || { missing=$v; break; }
	missing=
done
ok "macOS: every proxy variable names the proxy${missing:+ ($missing missing)}" eval '[ -z "$missing" ]'
ok "macOS: the profile denies the network and allows only (param \"EGRESS_PROXY\")" eval \
	'grep -qx "(deny network\*)" "$rec" && grep -qxF "(allow network-outbound (remote ip (param \"EGRESS_PROXY\")))" "$rec" && ! grep -qx "(allow network\*)" "$rec"'
ok "macOS: sandbox-exec gets -D EGRESS_PROXY=localhost:PORT as one pair of arguments" eval \
	'grep -A1 -x "argv\[[0-9]*\]=-D" "$rec" | grep -qx "argv\[[0-9]*\]=EGRESS_PROXY=localhost:$pport"'

# localhost is in NO_PROXY (a direct connection, which Seatbelt refuses;
# the stand-in does not): --noproxy '' sends it to the proxy
run /usr/bin/curl -sS --noproxy '' "http://localhost:$port/hello"
ok "macOS: a host the policy does not name: 403 with the policy line in the body" eval \
	'grep -qF "refused: denied by mac.sbx:2: network off" <<< "$out"'
ok "macOS: ... and the refusal on sbrun's stderr" eval \
	'grep -qxF "sbrun egress: GET http://localhost:$port/hello refused: denied by mac.sbx:2: network off" <<< "$err"'
run /bin/sh -c '/usr/bin/curl -sS -p -x "$HTTP_PROXY" http://forbidden.invalid/' 
ok "macOS: CONNECT to a forbidden name refused" eval 'grep -qF "CONNECT forbidden.invalid:80 refused" <<< "$err"'

run /bin/sh -c 'exit 7'
ok "macOS: the command's exit status comes back through the proxy's parent" eval '[ $rc = 7 ]'
run /bin/sh -c 'kill -TERM $$'
ok "macOS: a command killed by a signal: sbrun ends the same way (143)" eval '[ $rc = 143 ]'
# the proxy is gone when the tree has exited
ok "macOS: no proxy listens after the run" eval '! /usr/bin/curl -s -m 2 -x "http://127.0.0.1:$pport" "http://127.0.0.1:$port/hello" > /dev/null 2>&1'

# omp-sandboxed's proxy names omp-sandboxed, not sbrun, on its refusals
OS=$B/test-bin/omp-sandboxed
if [ -x "$OS" ]; then
	mkdir -p "$T/bin"
	printf '#!/bin/sh\nexec "$@"\n' > "$T/bin/omp"
	chmod 755 "$T/bin/omp"
	rm -f "$rec"
	out=$(cd "$H/proj" && /usr/bin/env -i PATH="$T/bin:/usr/bin:/bin" HOME=$H TERM=dumb SB_TEST_PLATFORM=macos \
		OMP_SANDBOX_TOOLS=none OMP_SANDBOX_NETWORK=allowlist OMP_SANDBOX_ALLOW_HOSTS=allowed.invalid \
		"$OS" /usr/bin/curl -sS --noproxy '' "http://localhost:$port/hello" 2> "$T/err")
	rc=$?
	err=$(cat "$T/err")
	ok "omp-sandboxed: the proxy's refusal begins with omp-sandboxed" eval \
		'grep -q "^omp-sandboxed egress: GET http://localhost:$port/hello refused: " <<< "$err" && ! grep -q "^sbrun egress:" <<< "$err"'
else
	echo "SKIP: $OS not built"
fi

echo "$npass passed, $nfail failed"
[ $nfail = 0 ]
