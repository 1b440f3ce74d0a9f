#!/usr/bin/env bash
# Egress by host name (docs/egress.md), against the real kernel and real
# clients.  Everything happens inside a private network namespace the suite
# creates (the test's "host"); the servers live in a second one behind a
# veth pair: allowed.test / registry.test / git.test / model.test (198.18.0.1,
# model.test: the stand-in model server omp talks to),
# forbidden.test (198.18.0.2) and rebind.test, a name the policy allows that
# resolves to a private address (10.9.0.1).  Names come from an /etc/hosts
# bind-mounted in the suite's private mount namespace.  Nothing reaches the
# machine's own network.  The client checks run as root and as uid 65534.
set -uo pipefail
cd "$(dirname "$0")/.."
B=${B:-build}
root=$PWD
. "$root/tests/lib/hermetic-git.sh"   # the suite's own git: no user or system config

if [ "${SBX_EGRESS_PHASE:-}" = "" ]; then
	if [ "$(id -u)" != 0 ] || ! /usr/bin/unshare -m -n --propagation private /bin/true 2>/dev/null; then
		echo "SKIP: private mount and network namespaces need root (unshare -m -n)"
		exit 77
	fi
	if ! "$B/bin/sbrun" --doctor >/dev/null 2>&1; then
		echo "SKIP: Landlock is not usable on this kernel (sbrun --doctor)"
		exit 77
	fi
	for t in /usr/sbin/ip /usr/bin/openssl /usr/bin/curl /usr/bin/python3 /usr/bin/nsenter /usr/bin/git; do
		if [ ! -x "$t" ]; then
			echo "SKIP: $t is missing (scripts/deps.sh installs it)"
			exit 77
		fi
	done
	# bun, omp's runtime (tests/lib/install-omp.sh installs the pinned one
	# with npm, outside the network namespace); none: its checks SKIP
	bundir=$(PATH=/usr/bin:/bin "$root/tests/lib/install-omp.sh" 2>/dev/null) || bundir=
	export SBX_EGRESS_BUN=${bundir:+$bundir/bun}
	export SBX_EGRESS_OMPDIR=$bundir
	exec /usr/bin/env SBX_EGRESS_PHASE=host /usr/bin/unshare -m -n --propagation private \
		/bin/bash "$root/tests/suite-egress.sh" "$@"
fi

# ---------------------------------------------------------------- phase 2
# The client checks, in a throwaway home (tests/lib/fakehome.sh), as root or
# as nobody.  $T: the suite's shared directory.
if [ "$SBX_EGRESS_PHASE" = client ]; then
	fail=0
	who=$(id -un 2>/dev/null || id -u)
	pass() { echo "PASS: [$who] $*"; }
	failed() { echo "FAIL: [$who] $*"; fail=1; }
	T=$SBX_EGRESS_DIR
	# copies outside every writable root (a checkout below /tmp is inside
	# the temp dir, and the launcher would warn that it is writable)
	S=$T/bin/sbrun
	P=$T/egress.sb
	CA=$T/ca.pem
	mkdir -p "$HOME/proj" "$HOME/.omp"
	cd "$HOME/proj"
	w=$HOME/proj
	log_has() { grep -q "$2" "$T/$1.log"; }
	log_count() { /usr/bin/wc -l <"$T/$1.log"; }
	sb() { "$S" "$P" -- "$@"; }
	py() { sb /usr/bin/python3 -c "$@"; }

	out=$(sb /usr/bin/curl -sS --cacert "$CA" https://allowed.test/hello 2>"$w/err")
	[ "$out" = "hello from allowed" ] && pass "curl https://allowed.test through the proxy" ||
		failed "curl https://allowed.test gave '$out' ($(head -c 300 "$w/err"))"
	out=$(sb /usr/bin/curl -sS http://allowed.test/hello 2>"$w/err")
	[ "$out" = "hello from allowed" ] && pass "curl http://allowed.test (plain HTTP forwarding)" ||
		failed "curl http://allowed.test gave '$out' ($(head -c 300 "$w/err"))"

	before=$(log_count forbidden)
	out=$(sb /usr/bin/curl -sS --cacert "$CA" https://forbidden.test/hello 2>"$w/err")
	if [ -z "$out" ] && grep -q "sbrun egress: CONNECT forbidden.test:443 refused: denied by egress.sbx:3: network off" "$w/err"; then
		pass "CONNECT forbidden.test refused with its policy line on stderr"
	else
		failed "CONNECT forbidden.test: out '$out', stderr: $(head -c 400 "$w/err")"
	fi
	out=$(sb /usr/bin/curl -s http://forbidden.test/hello 2>/dev/null)
	case $out in
	*"refused: denied by egress.sbx:3: network off"*) pass "plain GET forbidden.test answered 403 with the reason" ;;
	*) failed "plain GET forbidden.test gave '$out'" ;;
	esac
	out=$(sb /usr/bin/curl -sS --cacert "$CA" -k https://198.18.0.1/hello 2>&1)
	case $out in
	*"CONNECT 198.18.0.1:443 refused: denied by egress.sbx:3"*) pass "CONNECT to an IP literal refused (no IP rule names it)" ;;
	*) failed "CONNECT 198.18.0.1: '$out'" ;;
	esac
	out=$(sb /usr/bin/curl -sS --cacert "$CA" https://rebind.test/hello 2>&1)
	case $out in
	*"rebind.test resolves to 10.9.0.1, an internal address"*) pass "DNS rebinding: an allowed name resolving to 10.9.0.1 is refused" ;;
	*) failed "rebind.test: '$out'" ;;
	esac
	out=$(sb /usr/bin/curl -sS --cacert "$CA" https://forbidden.test/hello --connect-to forbidden.test:443:allowed.test:443 2>&1)
	case $out in
	*'TLS server name "forbidden.test" differs from the host CONNECT named'*) pass "SNI mismatch (CONNECT allowed.test, SNI forbidden.test) refused" ;;
	*) failed "SNI mismatch: '$out'" ;;
	esac
	out=$(sb /usr/bin/curl -sS -H "Host: forbidden.test" http://allowed.test/hello 2>&1)
	case $out in
	*"the Host header does not match"*) pass "Host-header mismatch on plain HTTP refused" ;;
	*) failed "Host mismatch: '$out'" ;;
	esac
	# a second request smuggled behind the first on one kept-alive connection
	out=$(py '
import socket
s = socket.create_connection(("127.0.0.1", 3128))
s.sendall(b"GET http://allowed.test/hello HTTP/1.1\r\nHost: allowed.test\r\n\r\n"
          b"GET http://forbidden.test/hello HTTP/1.1\r\nHost: forbidden.test\r\n\r\n")
data = b""
while True:
    b = s.recv(65536)
    if not b:
        break
    data += b
print(data.count(b"HTTP/1."), data.count(b"hello from forbidden"))
' 2>&1)
	[ "$out" = "1 0" ] && pass "a request smuggled on a kept-alive connection never leaves (one answer, one request)" ||
		failed "smuggling: '$out'"
	# plain HTTP inside a CONNECT tunnel (curl --proxytunnel): served for the
	# tunnel's host, refused for another name on the same address
	out=$(sb /usr/bin/curl -sS -p http://allowed.test/hello 2>&1)
	[ "$out" = "hello from allowed" ] && pass "plain HTTP in a CONNECT tunnel (curl -p) to the tunnel's host" ||
		failed "curl -p http://allowed.test gave '$out'"
	gbefore=$(grep -c "host=git.test" "$T/allowed.log")
	out=$(sb /usr/bin/curl -sS -p -H "Host: git.test" http://allowed.test/hello 2>&1)
	gafter=$(grep -c "host=git.test" "$T/allowed.log")
	if [[ $out != *"hello from"* ]] && [[ $out == *"the Host header names another host than the tunnel's"* ]] &&
		[ "$gbefore" = "$gafter" ]; then
		pass "CONNECT allowed.test:80 then Host: git.test: refused, the server never asked"
	else
		failed "virtual host in a tunnel: '$out' ($((gafter - gbefore)) git.test requests)"
	fi
	out=$(py '
import socket, ssl
s = socket.create_connection(("127.0.0.1", 3128))
s.sendall(b"CONNECT allowed.test:443 HTTP/1.1\r\nHost: allowed.test:443\r\n\r\n")
r = b""
while b"\r\n\r\n" not in r:
    r += s.recv(1)
ctx = ssl.create_default_context(cafile="'"$CA"'")
ctx.check_hostname = False
try:
    ctx.wrap_socket(s, server_hostname=None).sendall(b"GET /hello HTTP/1.1\r\nHost: forbidden.test\r\n\r\n")
    print("handshake done")
except (OSError, ssl.SSLError) as e:
    print("refused", type(e).__name__)
' 2>&1)
	case $out in
	*"without a server name (SNI)"*"refused "*) pass "TLS without SNI in a tunnel to a name: refused, with the reason" ;;
	*) failed "TLS without SNI: '$out'" ;;
	esac
	sleep 0.2
	after=$(log_count forbidden)
	[ "$before" = "$after" ] && pass "forbidden.test never saw a request ($after in its log)" ||
		failed "forbidden.test saw $((after - before)) request(s): $(tail -3 "$T/forbidden.log")"

	# escapes below the proxy: the namespace holds only loopback
	out=$(sb /usr/bin/curl -sS --noproxy '*' --max-time 5 http://198.18.0.2/hello 2>&1)
	case $out in
	*"Couldn't connect"*|*"Network is unreachable"*|*"Failed to connect"*) pass "direct TCP to an IP fails (curl --noproxy)" ;;
	*) failed "direct TCP: '$out'" ;;
	esac
	out=$(sb /usr/bin/env -u HTTPS_PROXY -u https_proxy -u ALL_PROXY -u all_proxy -u HTTP_PROXY -u http_proxy \
		/usr/bin/curl -sS --max-time 5 --cacert "$CA" https://allowed.test/hello 2>&1)
	case $out in
	*"hello from"*) failed "proxy variables removed: reached the server: '$out'" ;;
	*) pass "proxy variables removed: the direct connection fails ($(echo "$out" | head -c 80))" ;;
	esac
	out=$(py '
import errno, socket
def t(name, fam, typ, proto, addr):
    try:
        s = socket.socket(fam, typ, proto)
        s.settimeout(3)
        if typ == socket.SOCK_DGRAM:
            s.sendto(b"\x12\x34\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00\x07example\x03com\x00\x00\x01\x00\x01", addr)
            s.recvfrom(512)
        else:
            s.connect(addr)
        print(name, "ESCAPED")
    except OSError as e:
        print(name, errno.errorcode.get(e.errno, e.errno))
t("tcp4", socket.AF_INET, socket.SOCK_STREAM, 0, ("198.18.0.2", 80))
t("udp-dns", socket.AF_INET, socket.SOCK_DGRAM, 0, ("198.18.0.1", 53))
t("udp-quic", socket.AF_INET, socket.SOCK_DGRAM, 0, ("198.18.0.1", 443))
t("tcp6", socket.AF_INET6, socket.SOCK_STREAM, 0, ("2001:db8::1", 80))
t("udp6", socket.AF_INET6, socket.SOCK_DGRAM, 0, ("2001:db8::1", 53))
t("raw", socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP, ("198.18.0.1", 0))
t("packet", socket.AF_PACKET, socket.SOCK_RAW, 0x0300, ("198.18.0.1", 0)) if hasattr(socket, "AF_PACKET") else None
t("unix-path", socket.AF_UNIX, socket.SOCK_STREAM, 0, "'"$w"'/fwd.sock")
t("unix-abstract", socket.AF_UNIX, socket.SOCK_STREAM, 0, "\0sbx-egress-fwd")
' 2>&1)
	for probe in tcp4 udp-dns udp-quic tcp6 udp6 raw packet unix-path unix-abstract; do
		line=$(echo "$out" | grep "^$probe ")
		case $line in
		"$probe "E*) [ "$line" != "$probe ESCAPED" ] && pass "escape $probe blocked (${line#* })" || failed "escape $probe: $line" ;;
		*) failed "escape $probe: '${line:-no output}' ($(echo "$out" | tail -2))" ;;
		esac
	done

	# real work through the proxy
	out=$(sb /usr/bin/python3 -c '
import ssl, urllib.request
ctx = ssl.create_default_context(cafile="'"$CA"'")
print(urllib.request.urlopen("https://allowed.test/hello", context=ctx).read().decode().strip())
' 2>&1)
	[ "$out" = "hello from allowed" ] && pass "python urllib over HTTPS through the proxy" || failed "python urllib: '$out'"
	out=$(sb /usr/bin/python3 -c '
import urllib.request
try:
    urllib.request.urlopen("http://forbidden.test/hello")
    print("reached")
except urllib.error.HTTPError as e:
    print(e.code, e.read().decode().strip())
' 2>/dev/null)
	case $out in
	"403 "*"denied by egress.sbx:3"*) pass "python urllib to forbidden.test: 403 with the policy line" ;;
	*) failed "python urllib forbidden: '$out'" ;;
	esac
	rm -rf "$w/clone"
	if sb /usr/bin/env GIT_SSL_CAINFO="$CA" /usr/bin/git clone -q https://git.test/repo.git "$w/clone" 2>"$w/err" &&
		[ "$(cat "$w/clone/README" 2>/dev/null)" = "egress test repository" ]; then
		pass "git clone over HTTPS through the proxy"
	else
		failed "git clone: $(head -c 400 "$w/err")"
	fi
	if sb /usr/bin/env GIT_SSL_CAINFO="$CA" /usr/bin/git ls-remote https://forbidden.test/repo.git >/dev/null 2>"$w/err"; then
		failed "git ls-remote forbidden.test worked"
	else
		grep -q "CONNECT forbidden.test:443 refused" "$w/err" && pass "git to forbidden.test refused with the reason" ||
			failed "git forbidden: $(head -c 300 "$w/err")"
	fi
	if [ -x /usr/bin/npm ]; then
		rm -rf "$w/npmproj" && mkdir -p "$w/npmproj"
		if (cd "$w/npmproj" && sb /usr/bin/npm install --no-audit --no-fund --registry https://registry.test/ \
			--cafile "$CA" --cache "$w/npmproj/.npm-cache" sbx-egress-demo@1.0.0 >"$w/npm.out" 2>&1) &&
			[ "$(cat "$w/npmproj/node_modules/sbx-egress-demo/index.js" 2>/dev/null)" = "module.exports = 42;" ]; then
			pass "npm install from a local HTTPS registry through the proxy"
		else
			failed "npm install: $(tail -c 600 "$w/npm.out")"
		fi
	else
		echo "SKIP: [$who] npm is not installed"
	fi
	if [ -x /usr/bin/node ]; then
		out=$(sb /usr/bin/node -e '
fetch("https://allowed.test/hello").then(r => r.text()).then(t => console.log("reached", t.trim()), e => console.log("failed", e.cause ? e.cause.code : e.message))' 2>&1)
		major=$(/usr/bin/node -p 'process.versions.node.split(".")[0]')
		if [ "$major" -ge 24 ]; then
			[ "$out" = "reached hello from allowed" ] && pass "node fetch through the proxy (NODE_USE_ENV_PROXY)" || failed "node fetch: '$out'"
		else
			case $out in
			failed*) pass "node $major fetch ignores the proxy variables and its direct connection fails ($out)" ;;
			*) failed "node fetch: '$out'" ;;
			esac
			echo "SKIP: [$who] node $major's fetch ignores HTTP(S)_PROXY (NODE_USE_ENV_PROXY needs Node 24): allowed-host fetch not checked"
		fi
	fi

	# bun (omp's runtime): its fetch reads the proxy variables; a model
	# API's server-sent events stream through, a forbidden host is refused
	# with the reason (bun's fetch is what omp's API clients use; omp itself
	# follows, below)
	if [ -n "${SBX_EGRESS_BUN:-}" ] && [ -x "$SBX_EGRESS_BUN" ]; then
		bun() { sb /usr/bin/env NODE_EXTRA_CA_CERTS="$CA" "$SBX_EGRESS_BUN" -e "$1" 2>"$w/err"; }
		out=$(bun '
const r = await fetch("https://allowed.test/sse");
const rd = r.body.getReader(); let n = 0, buf = "";
for (;;) { const { done, value } = await rd.read(); if (done) break; buf += new TextDecoder().decode(value); }
n = (buf.match(/data: event/g) || []).length;
console.log(r.status, r.headers.get("content-type"), n);')
		[ "$out" = "200 text/event-stream 5" ] && pass "bun fetch: server-sent events from allowed.test through the proxy (5 events)" ||
			failed "bun fetch SSE gave '$out' ($(head -c 300 "$w/err"))"
		out=$(bun '
try { const r = await fetch("https://forbidden.test/hello"); console.log("reached", r.status); }
catch (e) { console.log("refused"); }')
		if [ "$out" = refused ] && grep -q "CONNECT forbidden.test:443 refused: denied by egress.sbx:3: network off" "$w/err"; then
			pass "bun fetch to forbidden.test refused, the policy line on stderr"
		else
			failed "bun fetch forbidden.test gave '$out' ($(head -c 300 "$w/err"))"
		fi
		out=$(bun 'const r = await fetch("http://forbidden.test/hello"); console.log(r.status, (await r.text()).trim());')
		case $out in
		"403 "*"denied by egress.sbx:3: network off"*) pass "bun fetch over plain HTTP to forbidden.test: 403 with the reason" ;;
		*) failed "bun fetch http://forbidden.test gave '$out' ($(head -c 300 "$w/err"))" ;;
		esac
	else
		echo "SKIP: [$who] bun is not installed (tests/lib/install-omp.sh failed): bun fetch not checked"
	fi

	# long-lived stream: event 0 must arrive before the server is told to
	# finish (a buffering proxy would deadlock here until the timeout)
	out=$(py '
import socket, ssl, sys
def proxied(host):
    s = socket.create_connection(("127.0.0.1", 3128), timeout=10)
    s.sendall(("CONNECT %s:443 HTTP/1.1\r\nHost: %s:443\r\n\r\n" % (host, host)).encode())
    r = b""
    while b"\r\n\r\n" not in r:
        r += s.recv(1)
    ctx = ssl.create_default_context(cafile="'"$CA"'")
    return ctx.wrap_socket(s, server_hostname=host)
a = proxied("allowed.test")
a.sendall(b"GET /sse?hold=1 HTTP/1.1\r\nHost: allowed.test\r\n\r\n")
buf = b""
while b"data: event 0" not in buf:
    buf += a.recv(4096)
b = proxied("allowed.test")
b.sendall(b"GET /release HTTP/1.1\r\nHost: allowed.test\r\nConnection: close\r\n\r\n")
b.recv(4096)
while True:
    d = a.recv(4096)
    if not d:
        break
    buf += d
print(buf.count(b"data: event"))
' 2>&1)
	[ "$out" = 5 ] && pass "server-sent events stream through unbuffered (event 0 before the release, 5 events)" ||
		failed "SSE: '$out'"
	want=$(cat "$T/big.sha")
	got=$(sb /usr/bin/curl -sS --cacert "$CA" "https://allowed.test/big?mb=128" 2>/dev/null | sha256sum | cut -d' ' -f1)
	[ "$got" = "$want" ] && pass "128 MiB download unchanged through the proxy" || failed "big download: $got != $want"
	head -c 3000000 /dev/urandom >"$w/body"
	want=$(sha256sum <"$w/body" | cut -d' ' -f1)
	got=$(sb /usr/bin/curl -sS --cacert "$CA" --data-binary @"$w/body" -H "Content-Type: application/octet-stream" https://allowed.test/echo 2>/dev/null | sha256sum | cut -d' ' -f1)
	[ "$got" = "$want" ] && pass "a 3 MB request body goes up and comes back unchanged" || failed "echo body: $got != $want"
	got=$(sb /usr/bin/curl -sS --data-binary @"$w/body" -H "Content-Type: application/octet-stream" http://allowed.test/echo 2>/dev/null | sha256sum | cut -d' ' -f1)
	[ "$got" = "$want" ] && pass "the same body over plain HTTP forwarding, unchanged" || failed "plain echo body: $got != $want"
	out=$(sb /bin/sh -c 'for i in $(seq 1 64); do echo "https://allowed.test/hello"; done |
		/usr/bin/xargs -P 32 -n 1 /usr/bin/curl -sS --cacert '"$CA"' | grep -c "hello from allowed"' 2>&1)
	[ "$out" = 64 ] && pass "64 requests, 32 in parallel, all answered" || failed "parallel: '$out'"

	# omp-sandboxed: OMP_SANDBOX_NETWORK=allowlist (the shipped preset) plus
	# OMP_SANDBOX_ALLOW_HOSTS; a stand-in omp that fetches two hosts
	mkdir -p "$w/fakebin"
	printf '#!/bin/sh\n/usr/bin/curl -sS --max-time 5 --cacert %s https://allowed.test/hello\n/usr/bin/curl -sS --max-time 5 --cacert %s https://forbidden.test/hello\nexit 0\n' "$CA" "$CA" >"$w/fakebin/omp"
	chmod +x "$w/fakebin/omp"
	O=$T/bin/omp-sandboxed
	out=$(PATH=$w/fakebin:$PATH OMP_SANDBOX_NETWORK=allowlist OMP_SANDBOX_ALLOW_HOSTS=allowed.test:443 "$O" 2>&1)
	if grep -q "^hello from allowed" <<<"$out" &&
		grep -q "CONNECT forbidden.test:443 refused: denied by omp-allowlist.sbx:9: network off" <<<"$out"; then
		pass "omp-sandboxed allowlist + OMP_SANDBOX_ALLOW_HOSTS: allowed.test reached, forbidden.test refused by the preset's line"
	else
		failed "omp-sandboxed allowlist: $(head -c 600 <<<"$out")"
	fi
	out=$(PATH=$w/fakebin:$PATH OMP_SANDBOX_NETWORK=off "$O" 2>&1)
	grep -q "hello from" <<<"$out" && failed "OMP_SANDBOX_NETWORK=off reached a server: $out" ||
		pass "omp-sandboxed OMP_SANDBOX_NETWORK=off: no server reached ($(grep -m1 curl <<<"$out" | head -c 80))"
	out=$(PATH=$w/fakebin:$PATH OMP_SANDBOX_NETWORK=allowlist OMP_SANDBOX_ALLOW_HOSTS=http://x "$O" 2>&1)
	rc=$?
	[ $rc = 78 ] && grep -q "OMP_SANDBOX_ALLOW_HOSTS entry 'http://x': a URL scheme" <<<"$out" &&
		pass "a bad OMP_SANDBOX_ALLOW_HOSTS entry refuses the launch (78) with the reason" || failed "bad ALLOW_HOSTS: rc $rc $out"

	# omp itself (bun) under omp-sandboxed, its model a stand-in server
	# (tests/egress/server.py: OpenAI-compatible chat completions streamed as
	# server-sent events) configured as a custom provider in omp's own
	# ~/.omp/agent/models.yml, one prompt in print mode (omp -p)
	if [ -n "${SBX_EGRESS_OMPDIR:-}" ] && [ -x "$SBX_EGRESS_OMPDIR/omp" ] && [ -x "$SBX_EGRESS_OMPDIR/bun" ]; then
		mkdir -p "$HOME/.omp/agent"
		cat >"$HOME/.omp/agent/models.yml" <<-EOF
		providers:
		  standin:
		    baseUrl: https://model.test/v1
		    api: openai-completions
		    apiKey: sk-standin-test
		    models:
		      - id: standin-1
		  elsewhere:
		    baseUrl: https://forbidden.test/v1
		    api: openai-completions
		    apiKey: sk-standin-test
		    models:
		      - id: standin-1
		EOF
		# omp's own retries off: a refused tunnel is otherwise retried up
		# to 10 times with back-off (tens of seconds per check)
		printf 'retry:\n  enabled: false\n' >"$HOME/.omp/agent/config.yml"
		# omp ARGS...: the real omp, its CA passed like a corporate one
		omp_run() {
			t0=$(/bin/date +%s%N)
			PATH=$SBX_EGRESS_OMPDIR:/usr/bin:/bin NODE_EXTRA_CA_CERTS=$CA OMP_SANDBOX_PASS_ENV=NODE_EXTRA_CA_CERTS \
				OMP_SANDBOX_NETWORK=allowlist /usr/bin/timeout 120 "$O" -p --no-session "$@" \
				"Say hello" >"$w/omp.out" 2>"$w/omp.err"
			local rc=$?
			secs=$(( ($(/bin/date +%s%N) - t0) / 1000000 ))
			secs=$((secs / 1000)).$(printf %03d $((secs % 1000)))
			# omp's own words about the failure (not the proxy's, not the trace's)
			said=$(grep -v -e '^omp-sandboxed egress:' -e '^sandbox:' -e '^omp-sandboxed:' "$w/omp.err" | grep -m1 -i -e error -e fail -e refused | head -c 160)
			return $rc
		}
		answer="The stand-in model on allowed answers: sandboxed egress works."
		before=$(grep -c "POST /v1/chat/completions host=model.test" "$T/allowed.log")
		OMP_SANDBOX_ALLOW_HOSTS=model.test:443 omp_run --model standin/standin-1
		rc=$?
		after=$(grep -c "POST /v1/chat/completions host=model.test" "$T/allowed.log")
		if [ $rc = 0 ] && [ "$(cat "$w/omp.out")" = "$answer" ] && [ "$after" -gt "$before" ]; then
			# omp also asks model catalogues at start-up (docs/egress.md):
			# refused, and omp carries on
			others=$(grep -o "^omp-sandboxed egress: CONNECT [^ ]* refused" "$w/omp.err" | cut -d' ' -f4 | sort -u | tr '\n' ' ')
			pass "omp -p (bun) through the proxy: the stand-in model's streamed answer printed ($((after - before)) request(s) at model.test, ${secs} s; other hosts refused: ${others:-none})"
		else
			failed "omp against model.test: rc $rc, out '$(head -c 300 "$w/omp.out")', err $(tail -c 600 "$w/omp.err")"
		fi
		# the refusals below take half a minute each (omp's own retries) and
		# exercise omp more than sbrun: the sanitizer build's rerun skips them
		if [ "$B" = build-san ]; then
			echo "SKIP: [$who] omp refusal checks under the sanitizer build (omp retries for half a minute each; the plain build's run checks them)"
		else
			# the stand-in host not in the allowlist: refused, the reason on
			# stderr and in the trace, and the server never asked
			before=$(grep -c "host=model.test" "$T/allowed.log")
			OMP_SANDBOX_ALLOW_HOSTS=registry.test:443 OMP_SANDBOX_TRACE=1 omp_run --model standin/standin-1
			rc=$?
			after=$(grep -c "host=model.test" "$T/allowed.log")
			err=$(cat "$w/omp.err")
			if [ $rc != 0 ] && ! grep -q "sandboxed egress works" "$w/omp.out" && [ "$after" = "$before" ] &&
				grep -q "omp-sandboxed egress: CONNECT model.test:443 refused: denied by omp-allowlist.sbx:9: network off" <<<"$err" &&
				grep -q 'sandbox: denied connect model.test:443 — omp-allowlist.sbx:9 "network off"; to allow: .*OMP_SANDBOX_ALLOW_HOSTS=model.test' <<<"$err"; then
				pass "omp with model.test not allowed: fails (rc $rc), the refusal on stderr and in the trace, the server never asked (${secs} s; omp said: ${said:-nothing})"
			else
				failed "omp with model.test not allowed: rc $rc, $((after - before)) request(s) seen, out '$(head -c 200 "$w/omp.out")', err $(tail -c 800 "$w/omp.err")"
			fi
			# a provider pointed at the forbidden host while model.test is allowed
			# (root only: omp's own transport retries with back-off take half a
			# minute per refusal, and the check above already ran as both users)
			if [ "$(id -u)" = 0 ]; then
				before=$(log_count forbidden)
				OMP_SANDBOX_ALLOW_HOSTS=model.test:443 OMP_SANDBOX_TRACE=1 omp_run --model elsewhere/standin-1
				rc=$?
				after=$(log_count forbidden)
				err=$(cat "$w/omp.err")
				if [ $rc != 0 ] && [ "$after" = "$before" ] &&
					grep -q "omp-sandboxed egress: CONNECT forbidden.test:443 refused: denied by omp-allowlist.sbx:9: network off" <<<"$err" &&
					grep -q 'sandbox: denied connect forbidden.test:443 — omp-allowlist.sbx:9' <<<"$err"; then
					pass "omp with its provider at forbidden.test: fails (rc $rc), the refusal on stderr and in the trace, forbidden.test never asked (${secs} s; omp said: ${said:-nothing})"
				else
					failed "omp at forbidden.test: rc $rc, $((after - before)) request(s) seen, err $(tail -c 800 "$w/omp.err")"
				fi
			fi
		fi
	else
		echo "SKIP: [$who] omp is not installed (tests/lib/install-omp.sh failed): omp against the stand-in model not checked"
	fi

	# the process model: status and signals come back as from a direct exec
	sb /bin/sh -c 'exit 7'
	rc=$?
	[ $rc = 7 ] && pass "the command's exit status comes back (7)" || failed "exit status $rc, want 7"
	sb /bin/sh -c 'kill -TERM $$' 2>/dev/null
	rc=$?
	[ $rc = 143 ] && pass "a command killed by SIGTERM: sbrun ends the same way (143)" || failed "signal death gave $rc, want 143"
	exit $fail
fi

# ---------------------------------------------------------------- phase 1
# Inside the suite's own network and mount namespaces, as root.
# outside every root the sandbox may write (else sbrun warns that the
# profile could be tampered with)
T=$(/usr/bin/mktemp -d /var/tmp/sbx-egress.XXXXXX)
chmod 755 "$T"
mkdir -m 755 "$T/bin" && cp "$root/$B/bin/sbrun" "$root/$B/bin/omp-sandboxed" "$T/bin/" ||
	{ echo "FAIL: cannot copy the launchers to $T/bin"; exit 1; }
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
/usr/sbin/ip link set lo up
/usr/bin/unshare -n /bin/sleep 3600 &
holder=$!
pids+=("$holder")
sleep 0.2
srv() { /usr/bin/nsenter -t "$holder" -n "$@"; }
/usr/sbin/ip link add sbxe0 type veth peer name sbxe1 &&
	/usr/sbin/ip link set sbxe1 netns "$holder" &&
	/usr/sbin/ip addr add 198.18.0.254/24 dev sbxe0 &&
	/usr/sbin/ip -6 addr add 2001:db8::254/64 dev sbxe0 nodad &&
	/usr/sbin/ip link set sbxe0 up &&
	/usr/sbin/ip route add 10.9.0.0/24 dev sbxe0 &&
	srv /usr/sbin/ip link set lo up &&
	srv /usr/sbin/ip addr add 198.18.0.1/24 dev sbxe1 &&
	srv /usr/sbin/ip addr add 198.18.0.2/24 dev sbxe1 &&
	srv /usr/sbin/ip addr add 10.9.0.1/24 dev sbxe1 &&
	srv /usr/sbin/ip -6 addr add 2001:db8::1/64 dev sbxe1 nodad &&
	srv /usr/sbin/ip link set sbxe1 up || { echo "FAIL: could not set up the test network"; exit 1; }

cat >"$T/hosts" <<EOF
127.0.0.1 localhost
198.18.0.1 allowed.test registry.test git.test model.test
198.18.0.2 forbidden.test
10.9.0.1 rebind.test
EOF
/bin/mount --bind "$T/hosts" /etc/hosts

# a test CA and one server certificate for every test name
(cd "$T" &&
	/usr/bin/openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 \
		-subj "/CN=sbx egress test CA" >/dev/null 2>&1 &&
	/usr/bin/openssl req -newkey rsa:2048 -nodes -keyout srv.key -out srv.csr \
		-subj "/CN=allowed.test" >/dev/null 2>&1 &&
	printf 'subjectAltName=DNS:allowed.test,DNS:forbidden.test,DNS:registry.test,DNS:git.test,DNS:model.test,DNS:rebind.test,IP:198.18.0.1\n' >ext &&
	/usr/bin/openssl x509 -req -in srv.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out srv.pem \
		-days 2 -extfile ext >/dev/null 2>&1) || { echo "FAIL: could not make the test CA"; exit 1; }
chmod 644 "$T"/*.pem "$T"/*.key

# content: a git repository (dumb HTTP), an npm registry with one package
mkdir -p "$T/www/npm" "$T/src"
(cd "$T/src" && /usr/bin/git init -q repo && cd repo && echo "egress test repository" >README &&
	/usr/bin/git add README && /usr/bin/git -c user.name=t -c user.email=t@t commit -qm init &&
	/usr/bin/git clone -q --bare . "$T/www/repo.git" && cd "$T/www/repo.git" &&
	/usr/bin/git update-server-info) || { echo "FAIL: could not make the test repository"; exit 1; }
if [ -x /usr/bin/npm ]; then
	mkdir -p "$T/src/pkg/package"
	echo '{"name":"sbx-egress-demo","version":"1.0.0","main":"index.js"}' >"$T/src/pkg/package/package.json"
	echo 'module.exports = 42;' >"$T/src/pkg/package/index.js"
	mkdir -p "$T/www/sbx-egress-demo/-"
	tar -C "$T/src/pkg" -czf "$T/www/sbx-egress-demo/-/sbx-egress-demo-1.0.0.tgz" package
	/usr/bin/python3 - "$T/www" <<'EOF'
import base64, hashlib, json, sys
www = sys.argv[1]
tgz = open(www + "/sbx-egress-demo/-/sbx-egress-demo-1.0.0.tgz", "rb").read()
doc = {"name": "sbx-egress-demo", "dist-tags": {"latest": "1.0.0"},
       "versions": {"1.0.0": {"name": "sbx-egress-demo", "version": "1.0.0", "main": "index.js",
                              "dist": {"tarball": "https://registry.test/sbx-egress-demo/-/sbx-egress-demo-1.0.0.tgz",
                                       "shasum": hashlib.sha1(tgz).hexdigest(),
                                       "integrity": "sha512-" + base64.b64encode(hashlib.sha512(tgz).digest()).decode()}}}}
open(www + "/sbx-egress-demo/index.json", "w").write(json.dumps(doc))
EOF
fi
/usr/bin/python3 -c '
import hashlib, sys
h = hashlib.sha256()
chunk = bytes(range(256)) * 4096
for _ in range(128):
    h.update(chunk)
print(h.hexdigest())' >"$T/big.sha"

start_server() {   # ADDR NAME
	: >"$T/$2.log"
	chmod 666 "$T/$2.log"
	# nsenter itself (it execs the server), not the srv function: a
	# backgrounded function is a subshell, and killing it at cleanup left
	# the server running (holding every descriptor the suite inherited)
	/usr/bin/nsenter -t "$holder" -n /usr/bin/python3 "$root/tests/egress/server.py" "$1" 80 443 \
		"$T/srv.pem" "$T/srv.key" "$T/www" "$T/$2.log" "$2" >"$T/$2.out" 2>&1 &
	pids+=("$!")
}
start_server 198.18.0.1 allowed
start_server 198.18.0.2 forbidden
start_server 10.9.0.1 internal
for n in allowed forbidden internal; do
	for _ in $(seq 1 100); do grep -q ready "$T/$n.out" 2>/dev/null && break; sleep 0.05; done
	grep -q ready "$T/$n.out" || { echo "FAIL: the $n server did not start: $(cat "$T/$n.out")"; exit 1; }
done

cat >"$T/egress.sbx" <<EOF
include "$root/examples/omp.sbx";
# the suite's policy: only the test names the servers answer for
network off;
network allow "allowed.test" "registry.test" "git.test:443" "rebind.test";
EOF
"$root/$B/bin/sbc" -o "$T/egress.sb" "$T/egress.sbx" || { echo "FAIL: compile the test policy"; exit 1; }

# outside listeners a sandboxed process must not reach: a UNIX socket in
# the workspace and an abstract one, both forwarding to forbidden.test
fwd='
import socket, sys, threading
path = sys.argv[1]
if path.startswith("@"):
    path = "\0" + path[1:]   # abstract
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(path)
s.listen(8)
print("ready", flush=True)
while True:
    c, _ = s.accept()
    u = socket.create_connection(("198.18.0.2", 80))
    def pump(a, b):
        while True:
            d = a.recv(65536)
            if not d:
                break
            b.sendall(d)
    threading.Thread(target=pump, args=(c, u), daemon=True).start()
    threading.Thread(target=pump, args=(u, c), daemon=True).start()
'
fail=0
for as in root nobody; do
	flag=
	home=/home/tester
	if [ $as = nobody ]; then flag=--as-nobody; home=/home/nobody; fi
	# the forwarders start inside the same throwaway home as the client
	/usr/bin/env SBX_EGRESS_PHASE=client SBX_EGRESS_DIR="$T" B="$B" SBX_EGRESS_FWD="$fwd" \
		"$root/tests/lib/fakehome.sh" $flag -- /bin/bash -c '
		mkdir -p "$HOME/proj"
		/usr/bin/python3 -c "$SBX_EGRESS_FWD" "$HOME/proj/fwd.sock" >"$HOME/fwd1.out" 2>&1 &
		f1=$!
		/usr/bin/python3 -c "$SBX_EGRESS_FWD" @sbx-egress-fwd >"$HOME/fwd2.out" 2>&1 &
		f2=$!
		for _ in $(seq 1 100); do grep -q ready "$HOME/fwd1.out" 2>/dev/null && break; sleep 0.05; done
		trap "kill $f1 $f2 2>/dev/null" EXIT
		/bin/bash "$0"
		' "$root/tests/suite-egress.sh" || fail=1
done
exit $fail
