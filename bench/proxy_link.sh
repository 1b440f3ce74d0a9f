#!/usr/bin/env bash
# proxy_link.sh - the egress proxy against a direct connection over a link
# limited to RATE (tc tbf on both ends of a veth pair), for bench/run.sh
# section 9: what the proxy costs where the network, not the CPU, is the limit.
#
#   proxy_link.sh B OMP_POLICY DIRECT_PROFILE TMPDIR RATE CONNS MIB ROUNDS
#
# Must run as root in a private network namespace (run.sh: unshare -n): it
# creates a second namespace (the "server") behind a veth pair, 198.18.7.254
# here and 198.18.7.1 there, shaped to RATE each way, and bench/proxy_bench's
# server in it.  Prints, per round and mode, "direct|proxy setup_us MEDIAN
# P90" and "direct|proxy mib_s MEDIAN" (as run.sh's proxy.txt), or one line
# "error: ..." and exit 1.  Everything it creates goes with the namespaces.
set -uo pipefail
[ $# = 8 ] || { echo "usage: proxy_link.sh B OMP_POLICY DIRECT_PROFILE TMPDIR RATE CONNS MIB ROUNDS" >&2; exit 2; }
B=$1 policy=$2 direct_profile=$3 T=$4 rate=$5 conns=$6 mib=$7 rounds=$8
pb=$B/bench/proxy_bench
ip=/usr/sbin/ip tc=/usr/sbin/tc
for t in "$ip" "$tc" /usr/bin/nsenter /usr/bin/unshare; do
	[ -x "$t" ] || { echo "error: $t is missing"; exit 1; }
done
holder= server=
cleanup() {
	[ -n "$server" ] && kill "$server" 2> /dev/null
	[ -n "$holder" ] && kill "$holder" 2> /dev/null
	wait 2> /dev/null
}
trap cleanup EXIT
"$ip" link set lo up
/usr/bin/unshare -n /bin/sleep 3600 &
holder=$!
sleep 0.2
in_server() { /usr/bin/nsenter -t "$holder" -n "$@"; }
if ! { "$ip" link add sbxb0 type veth peer name sbxb1 && "$ip" link set sbxb1 netns "$holder" &&
	"$ip" addr add 198.18.7.254/24 dev sbxb0 && "$ip" link set sbxb0 up &&
	in_server "$ip" link set lo up && in_server "$ip" addr add 198.18.7.1/24 dev sbxb1 &&
	in_server "$ip" link set sbxb1 up; } 2> "$T/link.err"; then
	echo "error: cannot set up the veth pair: $(head -1 "$T/link.err")"
	exit 1
fi
# a token bucket each way: RATE, a 256 KiB burst, at most 50 ms queued
if ! { "$tc" qdisc add dev sbxb0 root tbf rate "$rate" burst 256kb latency 50ms &&
	in_server "$tc" qdisc add dev sbxb1 root tbf rate "$rate" burst 256kb latency 50ms; } 2> "$T/link.err"; then
	echo "error: tc tbf refused (sch_tbf missing?): $(head -1 "$T/link.err")"
	exit 1
fi
printf 'include "%s";\nnetwork off;\nnetwork allow "198.18.7.1";\n' "$policy" > "$T/link.sbx"
if ! "$B/bin/sbc" -o "$T/link.sb" "$T/link.sbx" 2> "$T/link.err"; then
	echo "error: the policy does not compile: $(head -1 "$T/link.err")"
	exit 1
fi
rm -f "$T/link.port"
in_server "$pb" serve "$T/link.port" 198.18.7.1 &
server=$!
for _ in $(seq 1 50); do [ -s "$T/link.port" ] && break; sleep 0.05; done
port=$(cat "$T/link.port" 2> /dev/null)
[ -n "$port" ] || { echo "error: the server did not start"; exit 1; }
for _ in $(seq 1 "$rounds"); do
	for mode in direct proxy; do
		prof=$direct_profile
		[ $mode = proxy ] && prof=$T/link.sb
		if ! "$B/bin/sbrun" "$prof" "$pb" client $mode "198.18.7.1:$port" "$conns" $((mib * 1024 * 1024)) 3 \
			> "$T/link.out" 2> "$T/link.err"; then
			echo "error: the $mode run failed: $(grep -v warning "$T/link.err" | head -1 | cut -c1-100)"
			exit 1
		fi
		grep -E '^(setup_us|mib_s) ' "$T/link.out" | sed "s/^/$mode /"
	done
done
