# payloads.sh - hostile strings for tests/suite-injection.sh, sourced.
# PAYLOADS[name]=value.  Each is used as one path component: in a -D value,
# in quoted policy text, as a workspace name, a home directory name and an
# extra path.  CTRL[name]=1 marks the ones that hold a control character
# (these must be refused everywhere).
declare -gA PAYLOADS CTRL
PAYLOADS=(
	[plain]='plain'
	[quote]='a"b'
	[backslash]='a\b'
	[trailing-backslash]='ab\'
	[backslash-quote]='a\"b'
	[parens]='a(b)c'
	[sbpl-rule]='x")(allow file-read* (subpath "/"))(deny file-read* (literal "y'
	[sbpl-close]='x"))) (allow default) ((("'
	[semicolon]='a;b'
	[semicolon-rule]='a; (allow default)'
	[hash-raw]='#"raw"'
	[dollar]='$HOME'
	[tilde]='~'
	[glob]='*?[a]'
	[printf]='%s%n%x'
	[spaces]='  two  spaces '
	[utf8-invalid]=$'\xff\xfe'
	[utf8-overlong-slash]=$'\xc0\xaf'
	[utf8-lone-continuation]=$'a\x80b'
	[nfc]=$'caf\xc3\xa9'
	[nfd-non-nfc]=$'cafe\xcc\x81'
	[rtl-override]=$'a\xe2\x80\xaeb'
	[long-component]=$(printf 'c%.0s' $(seq 1 300))
	[newline]=$'a\nb'
	[newline-rule]=$'a\n(allow file-read* (subpath "/"))\n'
	[tab]=$'a\tb'
	[cr]=$'a\rb'
	[esc]=$'a\x1b[31mb'
	[del]=$'a\x7fb'
	[soh]=$'a\x01b'
)
CTRL=([newline]=1 [newline-rule]=1 [tab]=1 [cr]=1 [esc]=1 [del]=1 [soh]=1)
# A path far longer than PATH_MAX: 40 components of 200 bytes.
LONG_PATH=""
for _i in $(seq 1 40); do LONG_PATH+="/$(printf 'd%.0s' $(seq 1 200))"; done
unset _i
