#!/bin/sh
# Install the Debian packages the build and the tests need, when missing.
# Idempotent; needs root (CI and the dev machines run as root).
set -eu
need="flex bison make gcc libc6-dev libcriterion-dev pkg-config util-linux clang hyperfine bubblewrap mandoc valgrind nodejs npm git ca-certificates strace bash-completion zsh man-db socat ripgrep python3 python3-jsonschema python3-rfc3987 python3-yaml qemu-system-x86 cpio python3-venv python3-setuptools curl openssl iproute2 procps vim build-essential dpkg-dev debhelper dh-apparmor lintian fakeroot"
missing=""
# npm and node may come from another packaging (NodeSource's nodejs ships
# npm and conflicts with Debian's npm package): a working command counts.
have_command() {
	case "$1" in
	npm) [ -x /usr/bin/npm ] || [ -x /usr/local/bin/npm ] ;;
	nodejs) [ -x /usr/bin/node ] || [ -x /usr/local/bin/node ] ;;
	*) return 1 ;;
	esac
}
for p in $need; do
	have_command "$p" && continue
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "deps: installing:$missing" >&2
if [ "$(id -u)" != 0 ]; then
	echo "deps: not root; install as root: apt-get install$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends $missing >/dev/null
