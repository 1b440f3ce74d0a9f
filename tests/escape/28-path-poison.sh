DESC="PATH poisoned with fake helper tools before launch (the launcher must run none of them)"
EXPECT=blocked
STEPS=1
setup() {
	mkdir -p /mnt/esc-evil && chmod 0755 /mnt/esc-evil
	for t in sh bash dash env cat ls id getent uname mkdir rm mktemp realpath readlink \
		sandbox-exec true stat test which setpriv unshare ldd; do
		printf '#!/bin/sh\n: >"/mnt/esc-evil/RAN-%s"\nexit 0\n' "$t" >"/mnt/esc-evil/$t"
		chmod 0755 "/mnt/esc-evil/$t"
	done
}
launch() { run_inside PATH=/mnt/esc-evil:/usr/bin:/bin; }
inside() {
	reached "the command ran, launched with a poisoned PATH"   # a builtin: the point is what the launcher runs
}
verify() {
	local ran
	ran=$(ls /mnt/esc-evil | grep '^RAN-' || true)
	[ -z "$ran" ] || { echo "the launcher ran PATH tools: $ran"; return 1; }
}
