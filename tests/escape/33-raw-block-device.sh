DESC="reading a raw block device (the disk under \$HOME)"
EXPECT=blocked
STEPS=1
inside() {
	local dev=""
	for d in /dev/*; do
		[ -b "$d" ] && { dev=$d; break; }
	done
	if [ -z "$dev" ]; then
		skip "no block device node in /dev"
		return
	fi
	reached "a block device node: $dev"
	deny "$PROBE" read "$dev"
	deny dd if="$dev" of=/dev/null bs=512 count=1
}
