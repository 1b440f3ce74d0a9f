#!/usr/bin/env bash
# suite-docs: man pages lint and render, the help texts match the man pages,
# make install/uninstall round trip, bash and zsh completions, editor files.
# Exit 0 pass, 1 fail.  Checks whose tool is missing print SKIP.
set -uo pipefail
cd "$(dirname "$0")/.."
B=${B:-build}
ROOT=$PWD
fails=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
skip() { echo "SKIP: $*"; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/suite-docs.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

PAGES="man/sbc.1 man/sbrun.1 man/omp-sandboxed.1 man/sbx.5"

# ---- man pages: mandoc lint, man -l renders without warnings ----
if command -v mandoc >/dev/null; then
	for p in $PAGES; do
		if out=$(mandoc -T lint -W warning "$p" 2>&1) && [ -z "$out" ]; then
			pass "mandoc lint $p"
		else
			fail "mandoc lint $p: $out"
		fi
	done
else
	skip "mandoc not installed: lint not run"
fi
if command -v man >/dev/null; then
	for p in $PAGES; do
		name=$(basename "$p"); name=${name%.*}
		if MANWIDTH=100 man -l "$p" >"$TMP/page.txt" 2>"$TMP/page.err" && [ ! -s "$TMP/page.err" ] &&
			grep -q "^NAME" "$TMP/page.txt" && grep -q "EXIT STATUS\|^FILES\|^SYNOPSIS" "$TMP/page.txt"; then
			pass "man -l $p renders (NAME, SYNOPSIS), no warnings"
		else
			fail "man -l $p: $(cat "$TMP/page.err")"
		fi
	done
else
	skip "man not installed: rendering not checked"
fi

# ---- every long option a program's --help lists is in its man page ----
# Rendered man text, hyphens normalised.
man_text() { MANWIDTH=200 man -l "$1" 2>/dev/null | sed 's/\xe2\x80\x90/-/g; s/\x08.//g'; }
for prog in sbc sbrun omp-sandboxed; do
	bin=$B/bin/$prog
	if [ ! -x "$bin" ] || ! command -v man >/dev/null; then
		skip "$prog --help vs man page: $bin not built"
		continue
	fi
	hopt=--help vopt=--version
	# omp-sandboxed forwards --help/--version to omp (as the original did).
	[ "$prog" = omp-sandboxed ] && hopt=--sandbox-help vopt=--sandbox-version
	help=$("$bin" $hopt 2>&1)
	# sbc's subcommands have their own help; their options belong in sbc.1 too.
	if [ "$prog" = sbc ]; then
		help="$help
$("$bin" explain --help 2>&1)
$("$bin" diff --help 2>&1)"
	fi
	if [ -z "$help" ]; then
		fail "$prog $hopt prints nothing"
		continue
	fi
	txt=$(man_text "man/$prog.1")
	missing=""
	for opt in $(printf '%s\n' "$help" | grep -oE -- '(^|[ ,\[|])--[a-z][a-z-]*' | sed 's/^[ ,\[|]*//' | sort -u); do
		grep -qF -- "$opt" <<<"$txt" || missing="$missing $opt"
	done
	for var in $(grep -oE 'OMP_SANDBOX_[A-Z_]+' <<<"$help" | sort -u); do
		grep -qF -- "$var" <<<"$txt" || missing="$missing $var"
	done
	if [ -z "$missing" ]; then
		pass "$prog: every --option and OMP_SANDBOX_* variable of $hopt is in man/$prog.1"
	else
		fail "$prog: options in --help missing from man/$prog.1:$missing"
	fi
	if "$bin" $vopt >"$TMP/ver" 2>&1 && grep -q "^$prog [0-9]" "$TMP/ver"; then
		pass "$prog $vopt prints its name and version"
	else
		fail "$prog $vopt: $(cat "$TMP/ver")"
	fi
done

# ---- colour: on a terminal, plain otherwise, NO_COLOR respected ----
if [ -x "$B/bin/sbc" ] && command -v script >/dev/null; then
	printf 'default allow;\nallow write home;\n' >"$TMP/colour.sbx"
	esc=$'\033['
	tty_out=$(script -qec "$B/bin/sbc --check $TMP/colour.sbx" /dev/null 2>&1)
	nocolor_out=$(NO_COLOR=1 script -qec "$B/bin/sbc --check $TMP/colour.sbx" /dev/null 2>&1)
	pipe_out=$("$B/bin/sbc" --check "$TMP/colour.sbx" 2>&1)
	if [[ $tty_out == *"$esc"*error* ]] && [[ $nocolor_out != *"$esc"* ]] && [[ $nocolor_out == *error:* ]] &&
		[[ $pipe_out != *"$esc"* ]] && [[ $pipe_out == *error:* ]]; then
		pass "sbc diagnostics: colour on a terminal, plain in a pipe and with NO_COLOR=1"
	else
		fail "sbc colour: tty='${tty_out:0:60}' no_color='${nocolor_out:0:60}' pipe='${pipe_out:0:60}'"
	fi
else
	skip "colour check: sbc not built or script(1) missing"
fi
# the launcher reads NO_COLOR from the environment it is given (run.c), the
# diagnostics library from no environment at all
if [ -x "$B/bin/sbrun" ] && command -v script >/dev/null; then
	esc=$'\033['
	tty_out=$(script -qec "$B/bin/sbrun $TMP/absent.sb /bin/true" /dev/null 2>&1)
	nocolor_out=$(NO_COLOR=1 script -qec "$B/bin/sbrun $TMP/absent.sb /bin/true" /dev/null 2>&1)
	empty_out=$(NO_COLOR= script -qec "$B/bin/sbrun $TMP/absent.sb /bin/true" /dev/null 2>&1)
	if [[ $tty_out == *"$esc"*error* ]] && [[ $empty_out == *"$esc"*error* ]] &&
		[[ $nocolor_out != *"$esc"* ]] && [[ $nocolor_out == *error:* ]]; then
		pass "sbrun diagnostics: colour on a terminal (also with NO_COLOR empty), plain with NO_COLOR=1"
	else
		fail "sbrun colour: tty='${tty_out:0:60}' no_color='${nocolor_out:0:60}' empty='${empty_out:0:60}'"
	fi
else
	skip "sbrun colour check: sbrun not built or script(1) missing"
fi

# ---- make install DESTDIR=... / make uninstall round trip ----
if [ -x "$B/bin/sbc" ] && [ -x "$B/bin/sbrun" ] && [ -x "$B/bin/omp-sandboxed" ]; then
	stage=$TMP/stage
	expected=$TMP/expected
	{
		for p in sbc sbrun omp-sandboxed; do
			echo "755 usr/local/bin/$p"
			echo "644 usr/local/share/bash-completion/completions/$p"
			echo "644 usr/local/share/zsh/site-functions/_$p"
			echo "644 usr/local/share/man/man1/$p.1"
		done
		echo "644 usr/local/share/man/man5/sbx.5"
		for e in examples/*.sbx examples/README.md examples/ci/*.sbx examples/tools/*.sbx examples/protect/*.sbx; do
			[ -e "$e" ] && echo "644 usr/local/share/omp-sandbox/$e"
		done
		echo "644 usr/local/share/vim/vimfiles/syntax/sbx.vim"
		echo "644 usr/local/share/vim/vimfiles/ftdetect/sbx.vim"
	} | sort >"$expected"
	# An existing directory keeps its mode (Debian's /usr/local/share is 2775).
	mkdir -p "$stage/usr/local/share" && chmod 2775 "$stage/usr/local/share"
	if make -s --no-print-directory B="$B" install DESTDIR="$stage" >"$TMP/install.log" 2>&1; then
		if [ "$(stat -c %a "$stage/usr/local/share")" = 2775 ]; then
			pass "make install leaves the mode of existing directories alone"
		else
			fail "make install changed $stage/usr/local/share to $(stat -c %a "$stage/usr/local/share")"
		fi
		(cd "$stage" && find . ! -type d -printf '%m %P\n' | sort) >"$TMP/got"
		if diff -u "$expected" "$TMP/got" >"$TMP/diff"; then
			pass "make install DESTDIR: $(wc -l <"$expected") files, modes 755/644, PREFIX=/usr/local"
		else
			fail "make install DESTDIR: file list differs: $(cat "$TMP/diff")"
		fi
		if "$stage/usr/local/bin/sbc" --version >/dev/null 2>&1; then
			pass "installed sbc runs"
		else
			fail "installed sbc does not run"
		fi
		# The bash-completion package finds the installed files by command name.
		bc=/usr/share/bash-completion/bash_completion
		if [ -r "$bc" ]; then
			got=$(XDG_DATA_DIRS="$stage/usr/local/share" bash --norc --noprofile -c '
				source "$1" >/dev/null 2>&1
				for c in sbc sbrun omp-sandboxed; do __load_completion "$c" && complete -p "$c"; done' _ "$bc" 2>&1)
			want="complete -F _sbc sbc
complete -F _sbrun sbrun
complete -F _omp_sandboxed omp-sandboxed"
			if [ "$got" = "$want" ]; then
				pass "bash-completion loads the installed completions by command name"
			else
				fail "bash-completion dynamic loading: $got"
			fi
		else
			skip "bash-completion package not installed: dynamic loading not checked"
		fi
		if make -s --no-print-directory B="$B" uninstall DESTDIR="$stage" >"$TMP/uninstall.log" 2>&1; then
			left=$(cd "$stage" && find . ! -type d)
			if [ -z "$left" ] && [ ! -e "$stage/usr/local/share/omp-sandbox" ]; then
				pass "make uninstall leaves no file (and removes share/omp-sandbox)"
			else
				fail "make uninstall left: $left"
			fi
		else
			fail "make uninstall: $(cat "$TMP/uninstall.log")"
		fi
	else
		fail "make install DESTDIR: $(tail -5 "$TMP/install.log")"
	fi
	# PREFIX and the directory variables are honoured.
	if make -s --no-print-directory B="$B" install DESTDIR="$TMP/stage2" PREFIX=/opt/osb \
		MANDIR=/opt/osb/man >"$TMP/install2.log" 2>&1 &&
		[ -x "$TMP/stage2/opt/osb/bin/sbc" ] && [ -f "$TMP/stage2/opt/osb/man/man5/sbx.5" ] &&
		[ -f "$TMP/stage2/opt/osb/share/bash-completion/completions/sbc" ] &&
		[ ! -e "$TMP/stage2/usr" ]; then
		pass "make install honours PREFIX and MANDIR"
	else
		fail "make install PREFIX=/opt/osb MANDIR=/opt/osb/man: $(tail -5 "$TMP/install2.log")"
	fi
else
	skip "install round trip: programs not built (run make first)"
fi

# ---- bash completion ----
# complete WORDS...: source the completion, set COMP_WORDS/COMP_CWORD to the
# words (the last one is being completed) and print COMPREPLY one a line.
complete_bash() {
	local file=$1 fn=$2
	shift 2
	(cd "$TMP/ctree" && bash --norc --noprofile -c '
		source "$1"; fn=$2; shift 2
		COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMPREPLY=()
		"$fn"
		printf "%s\n" "${COMPREPLY[@]}"' _ "$ROOT/$file" "$fn" "$@")
}
# expect_bash DESC FILE FN "WORD..." EXPECTED... : every EXPECTED is offered.
expect_bash() {
	local desc=$1 file=$2 fn=$3 words=$4
	shift 4
	local got missing="" w
	# shellcheck disable=SC2086
	read -r -a argv <<<"$words"
	[ "${words: -1}" = " " ] && argv+=("")
	got=$(complete_bash "$file" "$fn" "${argv[@]}")
	for w in "$@"; do
		grep -qxF -- "$w" <<<"$got" || missing="$missing $w"
	done
	if [ -z "$missing" ]; then
		pass "bash completion: $desc"
	else
		fail "bash completion: $desc: missing$missing (got: $(echo $got))"
	fi
}
# refuse_bash DESC FILE FN "WORD..." UNEXPECTED... : none of them is offered.
refuse_bash() {
	local desc=$1 file=$2 fn=$3 words=$4
	shift 4
	local got bad="" w
	read -r -a argv <<<"$words"
	[ "${words: -1}" = " " ] && argv+=("")
	got=$(complete_bash "$file" "$fn" "${argv[@]}")
	for w in "$@"; do
		grep -qxF -- "$w" <<<"$got" && bad="$bad $w"
	done
	if [ -z "$bad" ]; then
		pass "bash completion: $desc"
	else
		fail "bash completion: $desc: offered$bad"
	fi
}
mkdir -p "$TMP/ctree/sub" && (cd "$TMP/ctree" && touch a.sbx b.sbx prof.sb notes.txt file-read-me)
if command -v bash >/dev/null; then
	C=completions/sbc.bash
	expect_bash "sbc offers its subcommands and .sbx files" $C _sbc "sbc " explain diff a.sbx b.sbx sub/
	refuse_bash "sbc does not offer non-policy files" $C _sbc "sbc " notes.txt prof.sb
	expect_bash "sbc long options" $C _sbc "sbc --" --check --format= --dump-ast --dump-ir --help --version
	expect_bash "sbc -Werror" $C _sbc "sbc -W" -Werror
	expect_bash "sbc --format= values (joined)" $C _sbc "sbc --format=" --format=text --format=json --format=sarif
	expect_bash "sbc --format values (split at =)" $C _sbc "sbc --format = s" sarif
	expect_bash "sbc -o offers .sb files" $C _sbc "sbc a.sbx -o " prof.sb
	expect_bash "sbc explain options" $C _sbc "sbc explain a.sbx --" --op --path --vnode --format=
	expect_bash "sbc explain files: .sbx and .sb" $C _sbc "sbc explain " a.sbx prof.sb
	expect_bash "sbc explain --op convenience names" $C _sbc "sbc explain a.sbx --op " read write stat list exec create delete
	expect_bash "sbc explain --vnode types" $C _sbc "sbc explain a.sbx --vnode " regular-file directory symlink
	expect_bash "sbc explain --op SBPL names" $C _sbc "sbc explain a.sbx --op file-read" 'file-read*' file-read-data file-read-metadata file-read-xattr
	refuse_bash "sbc explain --op keeps file-read* literal (no glob)" $C _sbc "sbc explain a.sbx --op file-read" file-read-me
	expect_bash "sbc explain --op process" $C _sbc "sbc explain a.sbx --op pro" 'process-exec*'
	expect_bash "sbc diff files" $C _sbc "sbc diff a.sbx " b.sbx prof.sb
	refuse_bash "sbc diff offers no sarif (json and text only)" $C _sbc "sbc diff --format=" --format=sarif
	C=completions/sbrun.bash
	expect_bash "sbrun -D skips its argument" $C _sbrun "sbrun -D X=1 " prof.sb
	expect_bash "sbrun -D split at = (COMP_WORDBREAKS)" $C _sbrun "sbrun -D X = 1 " prof.sb
	expect_bash "sbrun --require-abi takes a number" $C _sbrun "sbrun --require-abi " 3 7
	expect_bash "sbrun after --require-abi N: the profile" $C _sbrun "sbrun --require-abi 4 " prof.sb
	expect_bash "sbrun options" $C _sbrun "sbrun -" -D --print-profile --print-launch --plan --self-test --doctor --allow-unsandboxed --allow-unenforceable --require-abi --debug-denials --allow-shm --keep-background --help --version
	expect_bash "sbrun profile: .sb files" $C _sbrun "sbrun " prof.sb sub/
	refuse_bash "sbrun profile: no .sbx" $C _sbrun "sbrun " a.sbx notes.txt
	expect_bash "sbrun --plan takes a profile" $C _sbrun "sbrun --plan " prof.sb
	expect_bash "sbrun command after the profile" $C _sbrun "sbrun prof.sb ba" bash
	expect_bash "sbrun command after --" $C _sbrun "sbrun prof.sb -- ba" bash
	expect_bash "sbrun command arguments are files" $C _sbrun "sbrun prof.sb bash no" notes.txt
	C=completions/omp-sandboxed.bash
	expect_bash "omp-sandboxed options" $C _omp_sandboxed "omp-sandboxed --" --self-test --print-profile --sandbox-run --sandbox-help --sandbox-version
	expect_bash "omp-sandboxed forwards file arguments" $C _omp_sandboxed "omp-sandboxed x no" notes.txt
	for f in completions/*.bash; do
		if bash -n "$f" && grep -q "^complete -F" "$f"; then pass "bash -n $f"; else fail "bash -n $f"; fi
	done
fi

# ---- zsh completion, driven through zsh/zpty ----
if command -v zsh >/dev/null; then
	cat >"$TMP/zc.zsh" <<'ZEOF'
zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z "PS1='> '; fpath=($1 \$fpath); autoload -Uz compinit; compinit -u -D; zstyle ':completion:*' list-prompt ''; unsetopt beep; LISTMAX=10000; cd $2; print RE''ADY"
local out line n=0
while (( n++ < 100 )); do zpty -r -t z line && out+=$line || sleep 0.05; [[ $out == *READY* ]] && break; done
zpty -w -n z "$3"$'\t'
sleep $4
out=
while zpty -r -t z line; do out+=$line; done
print -r -- "$out"
zpty -d z
ZEOF
	expect_zsh() {
		local desc=$1 words=$2 got missing="" w wait
		shift 2
		# the list is read after a pause: a loaded host gets a longer one
		for wait in 1 4; do
			got=$(cd "$TMP/ctree" && timeout 30 zsh -f "$TMP/zc.zsh" "$ROOT/completions" "$TMP/ctree" "$words" $wait 2>&1 |
				tr -d '\r' | sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g')
			missing=""
			for w in "$@"; do
				grep -qF -- "$w" <<<"$got" || missing="$missing $w"
			done
			[ -z "$missing" ] && break
		done
		if [ -z "$missing" ]; then pass "zsh completion: $desc"; else fail "zsh completion: $desc: missing$missing"; fi
	}
	expect_zsh "sbc options" "sbc --" --check --dump-ast --format --version
	expect_zsh "sbc subcommands and policies" "sbc " explain diff a.sbx
	expect_zsh "sbc explain --op names" "sbc explain a.sbx --op " read stat file-read-data 'file-write*'
	expect_zsh "sbrun options" "sbrun --" --plan --doctor --print-profile --print-launch --allow-unsandboxed --allow-unenforceable --require-abi
	expect_zsh "omp-sandboxed options" "omp-sandboxed --" --self-test --print-profile
else
	skip "zsh not installed: zsh completions not exercised"
fi

# ---- vim syntax and ftdetect ----
if command -v vim >/dev/null && grep -q '+syntax' <<<"$(vim --version 2>/dev/null)"; then
	printf '# c\ndefault allow;\ndeny read home;\nallow read ~/.omp workspace $EXTRA_READ;\nallow stat-only exactly home;\n' >"$TMP/ctree/t.sbx"
	(cd "$TMP/ctree" && timeout 20 vim -Nu NONE -i NONE -es -c "set rtp^=$ROOT/editors/vim" -c 'filetype on' \
		-c 'syntax on' -c 'edit t.sbx' -c "redir! > $TMP/syn.out" -c 'echo &filetype' \
		-c 'for [l,c] in [[1,1],[2,1],[2,9],[3,6],[3,11],[4,12],[4,30],[5,7],[5,17]] | echo synIDattr(synID(l,c,1),"name") | endfor' \
		-c 'redir END' -c 'qa!') </dev/null >/dev/null 2>&1
	got=$(grep -v '^$' "$TMP/syn.out" 2>/dev/null | tr '\n' ' ')
	want="sbx sbxComment sbxStatement sbxAction sbxAccess sbxRoot sbxTilde sbxVariable sbxAccess sbxModifier "
	if [ "$got" = "$want" ]; then
		pass "vim: *.sbx detected and highlighted"
	else
		fail "vim syntax: got '$got', want '$want'"
	fi
else
	skip "vim with +syntax not installed: syntax file not exercised"
fi
if command -v python3 >/dev/null; then
	if python3 -c 'import json,sys; g=json.load(open(sys.argv[1])); assert g["scopeName"]=="source.sbx" and g["patterns"]' \
		editors/textmate/sbx.tmLanguage.json 2>"$TMP/tm.err"; then
		pass "TextMate grammar is valid JSON with scope source.sbx"
	else
		fail "TextMate grammar: $(cat "$TMP/tm.err")"
	fi
else
	skip "python3 not installed: TextMate grammar not parsed"
fi

[ "$fails" -eq 0 ]
