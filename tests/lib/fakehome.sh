#!/usr/bin/env bash
# fakehome.sh [--as-nobody] [--] COMMAND [ARGS...]
#
# Run COMMAND with a throwaway home, never the real one: in a private mount
# namespace (unshare -m --propagation private), a tmpfs is mounted on /home,
# and a generated copy of /etc/passwd is bind-mounted over /etc/passwd in which
# root's home is /home/tester and nobody's (uid 65534) is /home/nobody, so
# getpwuid() -- what the launcher trusts -- returns the throwaway home.
# Everything disappears with the namespace; nothing outside is changed.
#
# --as-nobody   run COMMAND as uid/gid 65534 (setpriv) with HOME=/home/nobody
# Exit: COMMAND's status; 77 when a private mount namespace is not available.
set -euo pipefail

if [ "${SBX_FAKEHOME_INSIDE:-}" != 1 ]; then
	if [ "$(id -u)" != 0 ] || ! /usr/bin/unshare -m --propagation private /bin/true 2>/dev/null; then
		echo "SKIP: fakehome: a private mount namespace needs root (unshare -m)" >&2
		exit 77
	fi
	exec /usr/bin/env SBX_FAKEHOME_INSIDE=1 /usr/bin/unshare -m --propagation private \
		/bin/bash "$0" "$@"
fi
unset SBX_FAKEHOME_INSIDE

as_nobody=0
if [ "${1:-}" = --as-nobody ]; then
	as_nobody=1
	shift
fi
[ "${1:-}" = -- ] && shift

/bin/mount -t tmpfs -o mode=0755 sbx-fakehome /home
/bin/mkdir -m 0700 /home/tester /home/nobody
/bin/chown 65534:65534 /home/nobody
# Root's and nobody's home entries point into the tmpfs.  The copy lives
# outside /home (else the Landlock planner rightly treats /etc/passwd as a
# bind-mount alias of the denied home) and is unlinked at once: the bind
# mount keeps it alive, inside this namespace only.
pw=$(/usr/bin/mktemp /tmp/sbx-fakehome-passwd.XXXXXX)
/usr/bin/awk -F: 'BEGIN { OFS = ":" }
	$3 == 0 { $6 = "/home/tester" }
	$3 == 65534 { $6 = "/home/nobody" }
	{ print }' /etc/passwd > "$pw"
/bin/chmod 0644 "$pw"
/bin/mount --bind "$pw" /etc/passwd
/bin/rm -f "$pw"

if [ "$as_nobody" = 1 ]; then
	cd /home/nobody
	exec /usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups \
		/usr/bin/env HOME=/home/nobody USER=nobody LOGNAME=nobody "$@"
fi
cd /home/tester
export HOME=/home/tester
exec "$@"
