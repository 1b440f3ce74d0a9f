#!/usr/bin/env bash
# check-layers.sh - prove the stage boundaries of docs/architecture.md at
# link time.  Each stage's archive is linked whole (every object, used or
# not) with only the archives that stage may use: a call into a forbidden
# stage is an undefined reference and fails here.  Then a deliberate
# forbidden call (the runtime calling a check pass) must fail to link, so
# the check itself is known to bite.
set -uo pipefail
cd "$(dirname "$0")/.."
B=${B:-build}
CC=${CC:-cc}
LDFLAGS=${LDFLAGS:-}
tmp=$(mktemp -d /tmp/sbx-layers.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

c() { for s; do printf '%s ' "$B/lib/libsbc-$s.a"; done; }
r() { for s; do printf '%s ' "$B/lib/libsbrt-$s.a"; done; }
# stage | archives it may use (users before what they use)
C_RT="$(c eval sbpl ir common)"
C_ALL="$(c driver lower check front eval sbpl ir common)"
table=(
	"$(c common)|"
	"$(c ir)|$(c common)"
	"$(c front)|$(c ir common)"
	"$(c check)|$(c front ir common)"
	"$(c lower)|$(c front ir common)"
	"$(c sbpl)|$(c ir common)"
	"$(c eval)|$(c ir common)"
	"$(c driver)|$(c lower check front eval sbpl ir common)"
	"$(c cli)|$(r common) $C_ALL"
	"$(r common)|$C_RT"
	"$(r macos)|$(r common) $C_RT"
	"$(r linux)|$(r common) $C_RT"
	"$(r cli)|$(r linux macos common) $C_ALL"
)
printf 'int main(void) { return 0; }\n' >"$tmp/main.c"
# The launcher programs provide the embedded profile; stand in for it.
printf 'const char sb_default_profile[] = ""; const unsigned long sb_default_profile_len = 0;\n' >"$tmp/embed.c"
"$CC" -c -o "$tmp/main.o" "$tmp/main.c" && "$CC" -c -o "$tmp/embed.o" "$tmp/embed.c" || exit 1
fail=0
for row in "${table[@]}"; do
	lib=${row%%|*}; lib=${lib% }
	deps=${row#*|}
	name=$(basename "$lib" .a)
	# shellcheck disable=SC2086
	if "$CC" $LDFLAGS -o "$tmp/a.out" "$tmp/main.o" "$tmp/embed.o" -Wl,--whole-archive "$lib" \
		-Wl,--no-whole-archive $deps -lm >"$tmp/log" 2>&1; then
		echo "PASS: layers: ${name#lib} links with only what it may use"
	else
		echo "FAIL: layers: ${name#lib} uses a stage it may not:"
		grep -o "undefined reference to \`[^']*'" "$tmp/log" | sort -u | head -10 | sed 's/^/  /'
		fail=1
	fi
done
# The check must bite: a runtime object calling a check pass does not link.
printf 'int sb_check_all(const void *, const void *, void *);\nint rt_forbidden(void) { return sb_check_all(0, 0, 0); }\n' >"$tmp/bad.c"
"$CC" -c -o "$tmp/bad.o" "$tmp/bad.c" || exit 1
# shellcheck disable=SC2086
if "$CC" $LDFLAGS -o "$tmp/a.out" "$tmp/main.o" "$tmp/embed.o" "$tmp/bad.o" $(r common) $C_RT -lm >"$tmp/log" 2>&1; then
	echo "FAIL: layers: a runtime call into a check pass linked"; fail=1
elif grep -q "undefined reference to \`sb_check_all'" "$tmp/log"; then
	echo "PASS: layers: a runtime call into a check pass fails to link (undefined sb_check_all)"
else
	echo "FAIL: layers: the forbidden link failed for another reason:"; head -5 "$tmp/log"; fail=1
fi
# Only the programs choose exit statuses (compiler/common/exit_status.h):
# no library stage includes that header.
bad=$(grep -l '"compiler/common/exit_status.h"' compiler/*/*.[ch] runtime/*/*.[ch] 2>/dev/null |
	grep -v -e '^compiler/cli/' -e '^runtime/cli/' -e '^compiler/common/exit_status.h$')
if [ -z "$bad" ]; then
	echo "PASS: layers: exit statuses are chosen only under compiler/cli and runtime/cli"
else
	echo "FAIL: layers: library code includes exit_status.h:" $bad; fail=1
fi
exit $fail
