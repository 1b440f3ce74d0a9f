#!/usr/bin/env bash
# Host rules in the compiler: located errors for bad patterns, the check
# warnings, the emitted SBPL (exact: the macOS form, unverified on macOS),
# the egress list read back from the profile, sbc explain --host and
# sbc diff on host rules.  No privileges needed.
set -uo pipefail
cd "$(dirname "$0")/.."
B=${B:-build}
sbc=$PWD/$B/bin/sbc
fail=0
pass() { echo "PASS: $*"; }
failed() { echo "FAIL: $*"; fail=1; }
tmp=$(mktemp -d /tmp/sbx-hosts.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# located errors, one per bad pattern, nothing written
printf 'default deny;\nnetwork allow "ok.example" "https://a.example" "a..b" "x*.example" "a.example:70000"\n  "a.example/p" "" "1.2.3" "10.0.0.0/33";\n' >"$tmp/bad.sbx"
"$sbc" -o "$tmp/bad.sb" "$tmp/bad.sbx" 2>"$tmp/err"
rc=$?
[ $rc != 0 ] && [ ! -e "$tmp/bad.sb" ] && pass "bad host patterns: exit $rc, no output file" || failed "bad patterns: rc $rc"
for want in '2:29: error: invalid host pattern "https://a.example": a URL scheme' \
	'2:51: error: invalid host pattern "a..b": empty label' \
	'2:57: error: invalid host pattern "x*.example": '"'"'*'"'"' is allowed only as a whole first label' \
	'2:79: error: invalid host pattern "a.example:70000": port must be a number from 1 to 65535' \
	'3:13: error: invalid host pattern "a.example/p": a path is not part of a host pattern' \
	'3:18: error: invalid host pattern "": empty host pattern' \
	'3:21: error: invalid host pattern "1.2.3": not a valid IPv4 address' \
	'3:29: error: invalid host pattern "10.0.0.0/33": CIDR prefix length out of range'; do
	grep -qF "bad.sbx:$want" "$tmp/err" && pass "located: ${want%%: error*} ${want#*invalid host pattern }" ||
		failed "missing '$want' in: $(cat "$tmp/err")"
done

# check warnings
cat >"$tmp/broad.sbx" <<'EOF'
default allow;
deny read home;
deny write home;
network allow "early.example";
network off;
network allow "*" "*.com" "*.amazonaws.com" "0.0.0.0/0" "registry.npmjs.org";
EOF
"$sbc" --check "$tmp/broad.sbx" 2>"$tmp/err" >/dev/null
for want in '6:15: warning: network allow "*" is broad: it allows every host name' \
	'6:19: warning: network allow "*.com" is broad: it allows a whole top-level domain' \
	'6:27: warning: network allow "*.amazonaws.com" is broad: anyone can host content' \
	'6:45: warning: network allow "0.0.0.0/0" is broad' \
	"4:1: warning: these host rules decide nothing: the later 'network off;' decides every host"; do
	grep -qF "broad.sbx:$want" "$tmp/err" && pass "check: ${want#*warning: }" | cut -c1-110 ||
		failed "missing '$want' in: $(cat "$tmp/err")"
done
printf 'default allow;\ndeny read home;\ndeny write home;\nnetwork off;\nnetwork allow "registry.npmjs.org";\n' >"$tmp/nomodel.sbx"
"$sbc" --check "$tmp/nomodel.sbx" 2>"$tmp/err" >/dev/null
grep -qF "nomodel.sbx:5:1: warning: the host rules allow none of the model APIs" "$tmp/err" &&
	pass "check: an allowlist without a model API is reported [host-model]" || failed "host-model: $(cat "$tmp/err")"
"$sbc" --check examples/omp-allowlist.sbx 2>"$tmp/err" >/dev/null
rc=$?
[ $rc = 0 ] && ! grep -q "host-" "$tmp/err" && pass "the shipped omp-allowlist preset checks clean" ||
	failed "omp-allowlist check: rc $rc $(cat "$tmp/err")"

# the emitted profile: only the proxy is reachable; the list travels as data
cat >"$tmp/p.sbx" <<'EOF'
default allow;
deny read home;
deny write home;
network off;
network allow "api.anthropic.com" "*.githubusercontent.com" "registry.npmjs.org:443";
network deny "evil.githubusercontent.com";
EOF
"$sbc" -o "$tmp/p.sb" "$tmp/p.sbx" 2>/dev/null || failed "compile p.sbx"
# (the origin table follows the egress list: compiler/sbpl/emit_sbpl.h, "Data")
sed -n '/^; where each rule comes from/q;p' "$tmp/p.sb" | tail -12 | head -11 >"$tmp/tail"
cat >"$tmp/want" <<'EOF'
(deny network*)
; p.sbx:6
; sbc: egress by host name: only the launcher's proxy is reachable; it decides by host
(allow network-outbound (remote ip (param "EGRESS_PROXY")))
; egress by host name, decided by the launcher's proxy (docs/egress.md)
(define sbx-egress (list
    (list "network" "off" "p.sbx:4")
    (list "allow" "api.anthropic.com" "p.sbx:5")
    (list "allow" "*.githubusercontent.com" "p.sbx:5")
    (list "allow" "registry.npmjs.org:443" "p.sbx:5")
    (list "deny" "evil.githubusercontent.com" "p.sbx:6")
EOF
if diff <(head -11 "$tmp/want") "$tmp/tail" >/dev/null; then
	pass "SBPL: (deny network*), only (remote ip (param \"EGRESS_PROXY\")) allowed, the list as data (unverified on macOS)"
else
	failed "SBPL tail differs: $(diff <(head -11 "$tmp/want") "$tmp/tail")"
fi
if grep -qF '    (list "p.sbx" 5 1 "network allow \"api.anthropic.com\" \"*.githubusercontent.com\" \"registry.npmjs.org:443\";")' "$tmp/p.sb" &&
	grep -A1 -F '(define sbx-egress-origins (list' "$tmp/p.sb" | grep -qF '"4 6 6 6 5"'; then
	pass "SBPL: each host rule's statement (file, line, column, text) travels in the origin table"
else
	failed "SBPL origin table: $(sed -n '/^(define sbx-origins/,$p' "$tmp/p.sb")"
fi
grep -q "^(allow network\*)" "$tmp/p.sb" && failed "an unfiltered network allow survived" ||
	pass "SBPL: no unfiltered network allow remains"

# explain --host on the policy and on its profile: same answers
for src in p.sbx p.sb; do
	for q in "api.anthropic.com:0:p.sbx:5: network allow \"api.anthropic.com\"" \
		"raw.githubusercontent.com:0:p.sbx:5: network allow \"*.githubusercontent.com\"" \
		"githubusercontent.com:1:p.sbx:4: network off" \
		"evil.githubusercontent.com:1:p.sbx:6: network deny \"evil.githubusercontent.com\"" \
		"registry.npmjs.org:80:1:p.sbx:4: network off" \
		"registry.npmjs.org:443:0:p.sbx:5: network allow \"registry.npmjs.org:443\"" \
		"API.Anthropic.COM.:0:p.sbx:5" \
		"192.0.2.1:1:p.sbx:4: network off"; do
		host=${q%%:[01]:*}
		rest=${q#"$host":}
		want_rc=${rest%%:*}
		want_by=${rest#?:}
		out=$("$sbc" explain "$tmp/$src" --host "$host" 2>&1)
		rc=$?
		if [ $rc = "$want_rc" ] && grep -qF "decided by: $want_by" <<<"$out"; then
			pass "explain $src --host $host: exit $rc, by $want_by"
		else
			failed "explain $src --host $host: exit $rc, '$out' (want $want_rc, $want_by)"
		fi
	done
done
out=$("$sbc" explain "$tmp/p.sb" --host api.anthropic.com --format=json)
[ "$out" = '{"host":"api.anthropic.com","port":443,"decision":"allow","by_proxy":true,"rule":"network allow \"api.anthropic.com\"","origin":"p.sbx:5"}' ] &&
	pass "explain --host --format=json" || failed "explain json: $out"
"$sbc" explain "$tmp/p.sb" --host 'a..b' 2>"$tmp/err"
rc=$?
[ $rc = 3 ] && grep -q "empty label" "$tmp/err" && pass "explain --host with a bad name: exit 3 with the reason" || failed "explain bad host: rc $rc"
out=$("$sbc" explain examples/omp.sbx --host example.com 2>&1)
rc=$?
[ $rc = 0 ] && grep -q "no host rules: the network is on for every host" <<<"$out" &&
	pass "explain --host on a policy without host rules: the network is on" || failed "omp.sbx explain --host: $rc $out"

# diff: a newly allowed host is a widening, a removed one a narrowing
sed 's/network deny "evil.githubusercontent.com";/network allow "new.example";/' "$tmp/p.sbx" >"$tmp/q.sbx"
out=$("$sbc" diff "$tmp/p.sbx" "$tmp/q.sbx" 2>&1)
rc=$?
[ $rc = 2 ] && grep -qF 'newly allowed: connect new.example:443' <<<"$out" &&
	grep -qF 'newly allowed: connect evil.githubusercontent.com:443' <<<"$out" &&
	pass "diff: newly allowed hosts are a widening (exit 2)" || failed "diff widen: rc $rc $out"
out=$("$sbc" diff "$tmp/q.sbx" "$tmp/p.sbx" 2>&1)
rc=$?
[ $rc = 1 ] && grep -qF 'newly denied: connect new.example:443' <<<"$out" &&
	pass "diff: hosts no longer allowed are a narrowing (exit 1)" || failed "diff narrow: rc $rc $out"
out=$("$sbc" diff examples/omp.sbx examples/omp-allowlist.sbx 2>&1)
rc=$?
[ $rc = 1 ] && grep -qF 'newly denied: connect ' <<<"$out" &&
	pass "diff omp.sbx -> omp-allowlist.sbx: narrowing only" || failed "diff omp->allowlist: rc $rc $(tail -5 <<<"$out")"
exit $fail
