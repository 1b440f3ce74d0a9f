#!/bin/sh
# peers.sh - install the peer sandboxes the benchmark compares with, pinned,
# into a git-ignored folder (default bench/.peers), and print where they are.
#   peers.sh install [DIR]   npm install the pinned versions when missing
#   peers.sh env [DIR]       print CODEX_NATIVE=, CODEX_NPM=, SRT= lines
# Exit 0 when both are usable, 1 otherwise (the reason on stderr): the
# benchmark then reports the peer rows as "not run" with that reason.
set -u
CODEX_VERSION=0.169.0
SRT_VERSION=0.0.83
here=$(cd "$(dirname "$0")" && pwd)
cmd=${1:-env}
dir=${2:-$here/.peers}
codex_native() {
	find "$dir/node_modules/@openai" -path '*/vendor/*-linux-*/bin/codex' -type f 2> /dev/null | head -1
}
case $cmd in
install)
	if [ -x "$dir/node_modules/.bin/codex" ] && [ -x "$dir/node_modules/.bin/srt" ] &&
		grep -q "\"version\": \"$CODEX_VERSION\"" "$dir/node_modules/@openai/codex/package.json" 2> /dev/null &&
		grep -q "\"version\": \"$SRT_VERSION\"" "$dir/node_modules/@anthropic-ai/sandbox-runtime/package.json" 2> /dev/null; then
		exit 0
	fi
	npm=$(command -v npm) || { echo "peers: npm not found (scripts/deps.sh installs it)" >&2; exit 1; }
	mkdir -p "$dir"
	[ -f "$dir/package.json" ] || printf '{ "private": true }\n' > "$dir/package.json"
	if ! "$npm" install --prefix "$dir" --no-audit --no-fund --loglevel=error \
		"@openai/codex@$CODEX_VERSION" "@anthropic-ai/sandbox-runtime@$SRT_VERSION" > "$dir/install.log" 2>&1; then
		echo "peers: npm install failed (registry unreachable?): $(tail -1 "$dir/install.log")" >&2
		exit 1
	fi
	;;
env) ;;
*) echo "usage: peers.sh install|env [DIR]" >&2; exit 2 ;;
esac
n=$(codex_native)
[ -n "$n" ] && [ -x "$dir/node_modules/.bin/codex" ] && [ -x "$dir/node_modules/.bin/srt" ] || {
	echo "peers: not installed in $dir (bench/peers.sh install)" >&2; exit 1; }
echo "CODEX_VERSION=$CODEX_VERSION"
echo "SRT_VERSION=$SRT_VERSION"
echo "CODEX_NATIVE=$n"
echo "CODEX_NPM=$dir/node_modules/.bin/codex"
echo "SRT=$dir/node_modules/.bin/srt"
