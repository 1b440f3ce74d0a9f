#!/usr/bin/env bash
# suite-cookbook.sh: run every fenced block of docs/cookbook.md as written.
# The blocks are extracted from the document at run time (never copied
# here); each one has a check below, keyed by its section and its place in
# the section, and a block without a check fails the suite, so a new recipe
# needs a test.  ```sh blocks run with /bin/sh in a workspace; ```sbx blocks
# whose first line is `# NAME.sbx` are written to NAME.sbx (the others must
# match the example they show); untyped blocks are messages, compared with
# what the launcher really prints.
# Setting: a private mount namespace with a throwaway home
# (tests/lib/fakehome.sh), the project installed by `make install` into a
# staging directory bind-mounted on /usr/local (the cookbook's paths), and a
# stand-in for omp on PATH that runs the probes this suite leaves for it
# (reads, writes, a socket) inside the real sandbox.
# Exit 0 pass, 77 skip, 1 fail.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-build}
case $B in /*) ;; *) B=$root/$B ;; esac
if [ "${SBX_SUITE_INSIDE:-}" != 1 ]; then
	exec /usr/bin/env SBX_SUITE_INSIDE=1 B="$B" "$root/tests/lib/fakehome.sh" -- \
		/bin/bash "$root/tests/suite-cookbook.sh"
fi
for f in sbc sbrun omp-sandboxed; do
	[ -x "$B/bin/$f" ] || { echo "SKIP: $B/bin/$f not built"; exit 77; }
done
for t in git make cc python3; do
	command -v $t > /dev/null || { echo "SKIP: $t not installed"; exit 77; }
done
H=/home/tester
T=$(mktemp -d /var/tmp/sbx-suite-cookbook.XXXXXX)
trap 'umount /usr/local 2> /dev/null; rm -rf --one-file-system "$T"' EXIT
chmod 755 "$T"

# ---- the installed project, as the cookbook's paths expect it ----
if ! make -s -C "$root" B="$B" install DESTDIR="$T/stage" PREFIX=/usr/local > "$T/install.log" 2>&1; then
	echo "FAIL: make install: $(tail -5 "$T/install.log")"
	exit 1
fi
mkdir -p "$T/stage/usr/local/share/omp-standin"
cat > "$T/stage/usr/local/bin/omp" <<'EOF'
#!/bin/sh
# stand-in for omp: runs the probes the cookbook suite left
try() { # OP PATH: read, write, list
	case $1 in
	read) cat "$2" > /dev/null 2>&1 ;;
	write) (echo agent > "$2") 2> /dev/null ;;
	list) ls "$2" > /dev/null 2>&1 ;;
	esac && r=ok || r=denied
	p=$2
	case $p in "$HOME"/*) p="~${p#"$HOME"}" ;; esac
	echo "omp: $1 $p: $r"
}
echo "omp: running in $PWD"
. /usr/local/share/omp-standin/probes
EOF
chmod 755 "$T/stage/usr/local/bin/omp"
: > "$T/stage/usr/local/share/omp-standin/probes"
mount --bind "$T/stage/usr/local" /usr/local || { echo "SKIP: cannot bind-mount /usr/local"; exit 77; }
EX=/usr/local/share/omp-sandbox/examples
PROBES=/usr/local/share/omp-standin/probes
[ -f "$EX/omp.sbx" ] || { echo "FAIL: make install put no omp.sbx in $EX"; exit 1; }
probes() { printf '%s\n' "$@" > "$PROBES"; }

# ---- the home and the workspace ----
mkdir -p "$H/.ssh" "$H/project" "$H/policies"
echo SECRET-KEY > "$H/.ssh/id_rsa"
printf '[user]\n\tname = Cook Book\n\temail = cook@example.invalid\n[include]\n\tpath = ~/.gitconfig.d/extra\n' > "$H/.gitconfig"
mkdir -p "$H/.gitconfig.d" && printf '[core]\n\tabbrev = 12\n' > "$H/.gitconfig.d/extra"
W=$H/project
git -C "$W" init -q && echo one > "$W/a.txt" && git -C "$W" add a.txt &&
	git -C "$W" commit -qm init || { echo "FAIL: workspace setup"; exit 1; }

npass=0 nfail=0
pass() { echo "PASS: $*"; npass=$((npass + 1)); }
fail() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
contains() { grep -qF -- "$2" <<< "$1"; }
# run_block FILE [DIR]: the block as written, with /bin/sh, in DIR (the
# workspace); $out is stdout and stderr, $rc the block's status
run_block() {
	out=$(cd "${2:-$W}" && /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=$H USER=root \
		LOGNAME=root TERM=dumb LANG=C.UTF-8 /bin/sh "$1" 2>&1)
	rc=$?
}
ok() { # DESC CONDITION...
	local d=$1
	shift
	if "$@"; then pass "$d"; else fail "$d (exit $rc; output: ${out:0:600})"; fi
}
# message FILE: the block's lines, the sample home made this one's, a
# trailing " ..." cut; each line must appear in $out as printed
message_matches() {
	local line
	while IFS= read -r line; do
		line=${line//\/home\/me/$H}
		line=${line% ...}
		contains "$out" "$line" || return 1
	done < "$1"
}
# example_matches FILE EXAMPLE: the block (its `# NAME.sbx` line aside) is
# the example's text after the example's own header comment, exactly
example_matches() {
	grep -v '^# [A-Za-z0-9_-]*\.sbx' "$1" > "$T/want"
	local n
	n=$(wc -l < "$T/want")
	[ "$n" -gt 0 ] || return 1
	tail -n "$n" "$2" | cmp -s - "$T/want" || return 1
	# what the block leaves out is the header comment only
	! head -n "-$n" "$2" | grep -qv '^#'
}

# ---- the blocks, from the document ----
mkdir "$T/blocks"
awk -v dir="$T/blocks" '
	/^## / { section = substr($0, 4); n = 0 }
	/^```/ && !inside { inside = 1; lang = substr($0, 4); if (lang == "") lang = "text"
		k++; n++; file = sprintf("%s/%03d.%s", dir, k, lang)
		printf "%s|%d|%s\n", section, n, file > (dir "/index"); next }
	/^```/ && inside { inside = 0; close(file); next }
	inside { print > file }
' "$root/docs/cookbook.md"
[ -s "$T/blocks/index" ] || { echo "FAIL: no fenced block found in docs/cookbook.md"; exit 1; }

check() { # SECTION N FILE
	local key="$1#$2" f=$3
	case $key in
	"#1") # the intro: lint, compile, run omp under a policy of one's own
		printf 'include "%s/omp.sbx";\n' "$EX" > "$W/my.sbx"
		probes 'try read ~/.ssh/id_rsa' 'try write ./agent.txt'
		run_block "$f"
		ok "intro: sbc --check, sbc -o, sbrun my.sb -- omp (omp ran sandboxed: workspace writable, ~/.ssh closed)" \
			eval '[ $rc = 0 ] && [ -s "$W/my.sb" ] && contains "$out" "omp: write ./agent.txt: ok" && contains "$out" "omp: read ~/.ssh/id_rsa: denied"'
		rm -f "$W/my.sbx" "$W/my.sb" "$W/agent.txt" ;;
	"Everyday tools: on by default#1")
		run_block "$f"
		ok "everyday tools: --print-profile | head and sbc explain of ~/.gitconfig (allowed by the git preset)" \
			eval 'contains "$out" ";; tool presets" && contains "$out" "allow: file-read-data $H/.gitconfig" && contains "$out" "tools/git.sbx"' ;;
	"Switch the presets off, or choose them#1")
		probes 'try read ~/.gitconfig' 'try list ~/.gitconfig.d'
		run_block "$f"
		ok "presets: TOOLS=none closes ~/.gitconfig, TOOLS=git,node opens it (two launches of omp)" \
			eval '[ $rc = 0 ] && [ "$(grep -c "omp: read ~/.gitconfig: denied" <<< "$out")" = 1 ] && [ "$(grep -c "omp: read ~/.gitconfig: ok" <<< "$out")" = 1 ]' ;;
	"Use a private registry (\`~/.npmrc\`)#1")
		echo '//registry.example.invalid/:_authToken=TOKEN' > "$H/.npmrc"
		probes 'try read ~/.npmrc'
		printf 'omp-sandboxed\n' > "$T/launch"
		run_block "$T/launch"
		ok "~/.npmrc: the launch prints the note as the cookbook shows it, and the file stays closed" \
			eval 'message_matches "$f" && contains "$out" "omp: read ~/.npmrc: denied"' ;;
	"Use a private registry (\`~/.npmrc\`)#2")
		probes 'try read ~/.npmrc'
		run_block "$f"
		ok "~/.npmrc: EXTRA_READ with CONFIRM_SENSITIVE_READ opens it for the session" \
			eval '[ $rc = 0 ] && contains "$out" "omp: read ~/.npmrc: ok"'
		rm -f "$H/.npmrc" ;;
	"Grant another directory (and create it first)#1")
		probes 'try write ~/shared-cache/from-agent' 'try read ~/shared-cache/from-agent' 'try write ~/elsewhere'
		run_block "$f"
		ok "another directory: created, then written and read back by omp; the rest of the home stays closed" \
			eval '[ $rc = 0 ] && contains "$out" "omp: write ~/shared-cache/from-agent: ok" && contains "$out" "omp: read ~/shared-cache/from-agent: ok" && contains "$out" "omp: write ~/elsewhere: denied" && [ -f "$H/shared-cache/from-agent" ]' ;;
	"Grant another directory (and create it first)#2")
		# cargo is installed, its registry not yet
		rm -rf "$H/.cargo" && mkdir "$H/.cargo"
		probes ''
		printf 'OMP_SANDBOX_EXTRA_WRITE=~/.cargo/registry omp-sandboxed\n' > "$T/launch"
		run_block "$T/launch"
		ok "a grant on a missing path: the warning is the one the cookbook shows" message_matches "$f" ;;
	"git: included configuration files#1")
		probes 'try read ~/.gitconfig.d/extra'
		run_block "$f"
		ok "git include: the included file is listed and readable with no variable" \
			eval '[ $rc = 0 ] && contains "$out" ";; git include (GIT_INCLUDES): $H/.gitconfig.d/extra" && contains "$out" "omp: read ~/.gitconfig.d/extra: ok"' ;;
	"Lift one protection#1")
		local name
		name=$(sed -n '1s/^# \([A-Za-z0-9_-]*\.sbx\)$/\1/p' "$f")
		cp "$f" "$W/$name"
		ok "lift one protection: $name written from the cookbook" test -s "$W/$name" ;;
	"Lift one protection#2")
		run_block "$f"
		ok "lift one protection: .vscode allowed by the later line, .envrc still denied by its group" \
			eval 'contains "$out" "allow: file-write-data $W/.vscode/settings.json" && contains "$out" "policy: mine.sbx:4" && contains "$out" "deny: file-write-data $W/.envrc" && contains "$out" "protected: denied by protect group \"direnv\""'
		rm -f "$W/mine.sbx" ;;
	"git: included configuration files#2")
		probes 'try read ~/.gitconfig' 'echo "omp: GIT_CONFIG_GLOBAL=$GIT_CONFIG_GLOBAL"' \
			'git config --global user.name agent && echo "omp: identity $(git config user.name)"'
		run_block "$f"
		ok "git: the agent's own identity (GIT_CONFIG_GLOBAL passed, ~/.gitconfig closed, its file writable)" \
			eval '[ $rc = 0 ] && contains "$out" "omp: read ~/.gitconfig: denied" && contains "$out" "omp: GIT_CONFIG_GLOBAL=$W/.gitconfig-agent" && contains "$out" "omp: identity agent"'
		rm -f "$W/.gitconfig-agent" ;;
	"A preset of your own#1" | "A preset of your own#2" | "Keep a \`.env\` unreadable#1")
		local name
		name=$(sed -n '1s/^# \([A-Za-z0-9_-]*\.sbx\)$/\1/p' "$f")
		[ -n "$name" ] || { fail "$1: block $2 names no file (# NAME.sbx)"; return; }
		# the cookbook's policies include omp.sbx: the installed examples beside them
		cp "$EX"/*.sbx "$W"/ && cp -r "$EX/tools" "$EX/protect" "$W"/
		cp "$f" "$W/$name"
		ok "$1: $name written from the cookbook" test -s "$W/$name" ;;
	"A preset of your own#3")
		mkdir -p "$H/.mytool" && echo conf > "$H/.mytool/conf"
		probes 'try read ~/.mytool/conf' 'try read ~/.gitconfig'
		run_block "$f"
		ok "a preset of your own: checked, compiled, on by default and switched on by OMP_SANDBOX_TOOLS=git,mytool" \
			eval '[ $rc = 0 ] && [ "$(grep -c "omp: read ~/.mytool/conf: ok" <<< "$out")" = 2 ] && [ "$(grep -c "omp: read ~/.gitconfig: ok" <<< "$out")" = 2 ]'
		printf 'OMP_SANDBOX_TOOLS=git sbrun my.sb -- omp\n' > "$T/launch"
		run_block "$T/launch"
		ok "... and OMP_SANDBOX_TOOLS without it switches it off" contains "$out" "omp: read ~/.mytool/conf: denied" ;;
	"Protect \`.git/hooks\` (and other files that run code)#1")
		ok "protect-git: the policy shown is examples/omp-protect-git.sbx" example_matches "$f" "$EX/omp-protect-git.sbx"
		cp "$EX"/*.sbx "$W"/ && cp -r "$EX/tools" "$EX/protect" "$W"/ ;;
	"Protect \`.git/hooks\` (and other files that run code)#2")
		run_block "$f"
		ok "protect-git: explain says deny at line 10 for a hook, allow for the index" \
			eval 'contains "$out" "deny: file-write-data $W/.git/hooks/pre-commit" && contains "$out" "at: omp-protect-git.sbx:10:1" && contains "$out" "allow: file-write-data $W/.git/index"' ;;
	"Protect \`.git/hooks\` (and other files that run code)#3")
		"$B/bin/sbc" "$W/omp-protect-git.sbx" -o "$W/omp-protect-git.sb" 2> /dev/null
		echo two >> "$W/a.txt"
		local before
		before=$(git -C "$W" rev-list --count HEAD)
		run_block "$f"
		ok "protect-git: touch the protected names, then git commit -am under the profile lands the commit" \
			eval '[ $rc = 0 ] && [ "$(git -C "$W" rev-list --count HEAD)" = $((before + 1)) ] && [ "$(git -C "$W" log -1 --format=%s)" = "agent work" ] && [ -f "$W/.envrc" ]'
		printf 'sbrun omp-protect-git.sb -- sh -c "echo evil > .git/hooks/pre-commit"\n' > "$T/launch"
		run_block "$T/launch"
		ok "... and a hook cannot be planted under it" eval '[ $rc != 0 ] && [ ! -e "$W/.git/hooks/pre-commit" ]' ;;
	"Keep a \`.env\` unreadable#2")
		echo 'API_KEY=SECRET-ENV' > "$W/.env"
		run_block "$f"
		ok ".env: compiled; ls -a lists it, cat .env is refused, the secret never shows" \
			eval '[ $rc != 0 ] && grep -qx .env <<< "$out" && contains "$out" "Permission denied" && ! contains "$out" SECRET-ENV' ;;
	"Network off#1")
		ok "network off: the policy shown is examples/omp-offline.sbx" example_matches "$f" "$EX/omp-offline.sbx" ;;
	"Network off#2")
		cp "$EX"/*.sbx "$W"/ && cp -r "$EX/tools" "$EX/protect" "$W"/
		printf 'int main(void) { return 0; }\n' > "$W/t.c"
		printf 'test:\n\tcc -o t t.c && ./t && echo built-and-ran\n\tpython3 -c "import socket; socket.socket()" || echo no-socket\n' > "$W/Makefile"
		run_block "$f"
		ok "network off: make test builds and runs with cc, and a socket cannot be opened" \
			eval '[ $rc = 0 ] && contains "$out" built-and-ran && contains "$out" no-socket && contains "$out" "Operation not permitted"' ;;
	"Lint policies in CI#1")
		local R=$H/policies
		git -C "$R" init -q
		cp "$f" "$R/.git/hooks/pre-commit" && chmod 755 "$R/.git/hooks/pre-commit"
		echo readme > "$R/README"
		printf 'cd %s && git add README && git commit -qm readme\n' "$R" > "$T/launch"
		run_block "$T/launch" "$R"
		ok "pre-commit hook: a commit that stages no policy goes through" \
			eval '[ $rc = 0 ] && [ "$(git -C "$R" log -1 --format=%s)" = readme ]'
		printf 'default allow;\ndeny write;\ndeny read home;\nallow write workspace;\n' > "$R/clean policy.sbx"
		printf 'git add "clean policy.sbx" && git commit -qm clean\n' > "$T/launch"
		run_block "$T/launch" "$R"
		ok "pre-commit hook: a clean policy (a name with a space) is checked and committed" \
			eval '[ $rc = 0 ] && [ "$(git -C "$R" log -1 --format=%s)" = clean ]'
		printf 'default allow;\ndeny write;\ndeny read home;\nallow write workspace;\nallow write workspace;\n' > "$R/warn.sbx"
		printf 'git add warn.sbx && git commit -qm warn\n' > "$T/launch"
		run_block "$T/launch" "$R"
		ok "pre-commit hook: a policy with a warning blocks the commit (-Werror), with a located message" \
			eval '[ $rc != 0 ] && [ "$(git -C "$R" log -1 --format=%s)" = clean ] && contains "$out" "warn.sbx:"'
		printf 'default allow;\nallow write caches/npm;\n' > "$R/bad.sbx"
		git -C "$R" reset -q
		printf 'git add bad.sbx && git commit -qm bad\n' > "$T/launch"
		run_block "$T/launch" "$R"
		ok "pre-commit hook: a policy with an error blocks the commit" \
			eval '[ $rc != 0 ] && [ "$(git -C "$R" log -1 --format=%s)" = clean ] && contains "$out" "bad.sbx:2:"' ;;
	*)
		fail "docs/cookbook.md: block $2 of section '$1' has no check in tests/suite-cookbook.sh" ;;
	esac
}

nblocks=0
while IFS='|' read -r section n file; do
	nblocks=$((nblocks + 1))
	check "$section" "$n" "$file"
done < "$T/blocks/index"
echo "cookbook: $nblocks blocks of docs/cookbook.md run"
echo "cookbook: $npass passed, $nfail failed"
[ $nfail = 0 ]
