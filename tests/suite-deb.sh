#!/usr/bin/env bash
# suite-deb.sh: the Debian package.  Builds it with Debian's own tools
# (scripts/make-deb.sh: dpkg-buildpackage, debhelper, then lintian at its
# default level), installs it with dpkg into a throwaway root (dpkg --root,
# its own dpkg database), then, in a private mount namespace where that
# root's /usr is laid over the system's (overlayfs), runs the installed
# /usr/bin programs: the self-tests, a policy from the installed examples,
# the manual pages and the completions.  Exit 0 pass, 77 skip, 1 fail.
# The package is built from the sources with Debian's tools, not from the
# sanitizer build: checked once, in the normal run.
if [ -n "${SBX_IN_SANITIZE:-}" ] || [ "${B:-build}" = build-san ]; then
	echo "SKIP: the package is checked once, in the normal run"
	exit 77
fi
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-build}
case $B in /*) ;; *) B=$root/$B ;; esac
for t in dpkg-buildpackage dh lintian git; do
	command -v "$t" > /dev/null || { echo "SKIP: $t missing (scripts/deps.sh installs it)"; exit 77; }
done
[ "$(id -u)" = 0 ] || { echo "SKIP: the install test needs root (dpkg --root, mount namespace)"; exit 77; }
if [ "${SBX_SUITE_INSIDE:-}" != 1 ]; then
	npass=0 nfail=0
	pass() { echo "PASS: $*"; npass=$((npass + 1)); }
	fail() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
	T=$(mktemp -d /var/tmp/sbx-suite-deb.XXXXXX)
	trap 'rm -rf --one-file-system "$T"' EXIT
	if DEB_BUILD_OPTIONS="parallel=2" "$root/scripts/make-deb.sh" "$T/b" > "$T/make-deb.log" 2>&1; then
		pass "make deb: dpkg-buildpackage builds the package"
		pass "lintian is clean at its default level (errors and warnings)"
	else
		fail "make deb: $(tail -20 "$T/make-deb.log")"
		echo "deb: $npass passed, $nfail failed"
		exit 1
	fi
	deb=$(ls "$T"/b/deb/omp-sandbox_*.deb)
	# The throwaway root: its own dpkg database; its /usr and /etc are
	# overlays of the system's (in a private mount namespace) whose upper
	# layers, $P, receive what the package installs, so the maintainer
	# scripts run chrooted with a real shell and nothing of the system changes
	# (no /sys in the root: aa-enabled says no, no profile reaches the kernel).
	R=$T/root P=$T/pkg
	mkdir -p "$R/var/lib/dpkg/info" "$R/var/lib/dpkg/updates" "$R/usr" "$R/etc" "$R/tmp" \
		"$P/usr" "$P/etc" "$T/ow/usr" "$T/ow/etc"
	: > "$R/var/lib/dpkg/status"
	for l in bin lib lib64 sbin; do [ -L "/$l" ] && ln -s "$(readlink "/$l")" "$R/$l"; done
	# libc6 is not in the throwaway database: the system's is used at run time
	if /usr/bin/unshare -m --propagation private /bin/sh -ec '
		for d in usr etc; do
			mount -t overlay sbx-deb-$d -o "lowerdir=/$d,upperdir=$2/$d,workdir=$3/$d" "$1/$d"
		done
		mkdir -p "$1/dev" && : > "$1/dev/null" && mount --bind /dev/null "$1/dev/null"
		dpkg --root="$1" --force-depends -i "$4"' sh "$R" "$P" "$T/ow" "$deb" > "$T/dpkg.log" 2>&1 &&
		dpkg --root="$R" -s omp-sandbox 2> /dev/null | grep -q '^Status: install ok installed'; then
		pass "dpkg installs the package into a throwaway root (postinst run there)"
	else
		fail "dpkg -i: $(tail -5 "$T/dpkg.log")"
	fi
	want="usr/bin/sbc usr/bin/sbrun usr/bin/omp-sandboxed usr/share/man/man1/sbc.1.gz
		usr/share/man/man1/sbrun.1.gz usr/share/man/man1/omp-sandboxed.1.gz usr/share/man/man5/sbx.5.gz
		usr/share/bash-completion/completions/sbrun usr/share/zsh/vendor-completions/_sbc
		usr/share/omp-sandbox/examples/omp.sbx usr/share/doc/omp-sandbox/copyright
		usr/share/vim/vimfiles/syntax/sbx.vim etc/apparmor.d/omp-sandbox"
	missing=
	for f in $want; do [ -e "$P/$f" ] || missing="$missing $f"; done
	[ -z "$missing" ] && pass "the package holds the three commands, man pages, completions, examples, the AppArmor profile" ||
		fail "missing from the package:$missing"
	grep -q '^profile omp-sandbox-sbrun /usr/bin/sbrun ' "$P/etc/apparmor.d/omp-sandbox" 2> /dev/null &&
		[ -f "$P/etc/apparmor.d/local/omp-sandbox" ] &&
		grep -qx '/etc/apparmor.d/omp-sandbox' "$R/var/lib/dpkg/info/omp-sandbox.conffiles" 2> /dev/null &&
		grep -q 'apparmor_parser' "$R/var/lib/dpkg/info/omp-sandbox.postinst" 2> /dev/null &&
		pass "the AppArmor profile names /usr/bin/sbrun, is a conffile, and the postinst loads it (dh_apparmor)" ||
		fail "the AppArmor profile: $(head -12 "$P/etc/apparmor.d/omp-sandbox" 2>&1)"
	# the installed programs, at their installed paths
	omp_dir=
	if d=$("$root/tests/lib/install-omp.sh" 2> "$T/omp.log"); then omp_dir=$d; fi
	out=$(/usr/bin/env SBX_SUITE_INSIDE=1 DEB_ROOT="$P" OMP_DIR="$omp_dir" \
		/usr/bin/unshare -m --propagation private /bin/bash "$0" 2>&1)
	rc=$?
	echo "$out"
	npass=$((npass + $(grep -c '^PASS:' <<<"$out")))
	nfail=$((nfail + $(grep -c '^FAIL:' <<<"$out")))
	[ $rc = 0 ] || [ $rc = 1 ] || fail "the installed-paths part exited $rc"
	echo "deb: $npass passed, $nfail failed"
	[ $nfail = 0 ]
	exit
fi

# ---- inside a private mount namespace: the package's /usr over the system's ----
npass=0 nfail=0
pass() { echo "PASS: $*"; npass=$((npass + 1)); }
fail() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
mount -t overlay sbx-deb -o "lowerdir=$DEB_ROOT/usr:/usr" /usr ||
	{ echo "SKIP: cannot lay the package's /usr over the system's (overlayfs)"; exit 77; }
[ "$(readlink -f "$(command -v sbc)")" = /usr/bin/sbc ] || fail "sbc on PATH is not /usr/bin/sbc"
v=$(/usr/bin/sbc --version) && [ "$v" = "sbc 0.1.0" ] && pass "/usr/bin/sbc --version: $v" || fail "/usr/bin/sbc --version: $v"
/usr/bin/sbc --check /usr/share/omp-sandbox/examples/*.sbx /usr/share/omp-sandbox/examples/ci/*.sbx 2> /tmp/sbx-deb-check.err &&
	pass "the installed sbc checks every installed example policy (tools/ are include fragments)" || fail "sbc --check examples: $(head -5 /tmp/sbx-deb-check.err)"
if man -l /usr/share/man/man1/sbrun.1.gz 2> /dev/null | grep -q "sbrun"; then
	pass "man renders the installed sbrun(1)"
else
	fail "man -l /usr/share/man/man1/sbrun.1.gz"
fi
if bash -c 'source /usr/share/bash-completion/completions/sbc && complete -p sbc' > /dev/null 2>&1; then
	pass "the installed bash completion registers sbc"
else
	fail "bash completion for sbc"
fi
cat > /tmp/sbx-deb-selftest.sh <<'EOF'
set -u
mkdir -p "$HOME/project" && cd "$HOME/project" || exit 1
/usr/bin/sbrun --self-test /usr/share/omp-sandbox/examples/omp.sbx > /tmp/sbx-deb-sbrun.out 2>&1
echo "sbrun-rc=$?"
if [ -n "${OMP_DIR:-}" ]; then
	PATH="$OMP_DIR:$PATH" /usr/bin/omp-sandboxed --self-test > /tmp/sbx-deb-omp.out 2>&1
	echo "omp-rc=$?"
fi
/usr/bin/sbrun /usr/share/omp-sandbox/examples/omp.sbx -- /bin/sh -c 'echo ok > inside && cat inside' 2>/dev/null
/usr/bin/sbrun /usr/share/omp-sandbox/examples/omp.sbx -- /bin/sh -c "echo x > $HOME/outside" 2>/dev/null
echo "outside-rc=$?"
EOF
res=$("$(dirname "$0")/lib/fakehome.sh" -- /bin/bash /tmp/sbx-deb-selftest.sh 2>&1)
grep -q '^sbrun-rc=0$' <<<"$res" && pass "/usr/bin/sbrun --self-test with the installed omp.sbx policy passes" ||
	fail "sbrun --self-test: $res $(tail -15 /tmp/sbx-deb-sbrun.out 2>/dev/null)"
if [ -n "${OMP_DIR:-}" ]; then
	grep -q '^omp-rc=0$' <<<"$res" && pass "/usr/bin/omp-sandboxed --self-test with the real omp passes" ||
		fail "omp-sandboxed --self-test: $(tail -15 /tmp/sbx-deb-omp.out 2>/dev/null)"
else
	echo "SKIP: /usr/bin/omp-sandboxed --self-test: the real omp is unavailable (tests/lib/install-omp.sh)"
fi
grep -qx ok <<<"$res" && grep -q '^outside-rc=[1-9]' <<<"$res" &&
	pass "the installed sbrun runs a command under the installed policy: workspace writable, home not" ||
	fail "installed sbrun launch: $res"
rm -f /tmp/sbx-deb-selftest.sh /tmp/sbx-deb-*.out /tmp/sbx-deb-check.err
[ $nfail = 0 ]
