# bash completion for sbc(1) - omp-sandbox policy compiler.
# Self-contained: works with or without the bash-completion package.

# Operation names `sbc explain --op` accepts: the convenience names, then the
# SBPL file and process operations.
_sbc_ops="read write stat list exec create delete
file* file-read* file-read-data file-read-metadata file-read-xattr
file-write* file-write-data file-write-create file-write-unlink file-write-mode
file-write-owner file-write-flags file-write-times file-write-xattr file-write-acl
file-write-finderinfo file-ioctl file-mknod file-test-existence file-map-executable
file-link file-clone fs-rename process-exec* process-exec-interpreter"

# Append compgen's output to COMPREPLY, one word a line, without globbing
# (operation names such as file-read* must stay literal).
_sbc_add()
{
	local w
	while IFS= read -r w; do
		COMPREPLY+=("$w")
	done < <(compgen "$@")
}

# Complete files whose name ends in one of the given suffixes, plus directories.
_sbc_files()
{
	local cur=$1 ext f
	shift
	for ext in "$@"; do
		_sbc_add -f -X "!*.$ext" -- "$cur"
	done
	while IFS= read -r f; do
		COMPREPLY+=("$f/")
	done < <(compgen -d -- "$cur")
	compopt -o filenames -o nospace 2>/dev/null || true
}

_sbc()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=""
	[ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD-1]}
	COMPREPLY=()
	local sub="" i
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		explain|diff) sub=${COMP_WORDS[i]}; break ;;
		-*) ;;
		*) break ;;
		esac
	done

	# With the default COMP_WORDBREAKS, "--format=js" arrives as
	# "--format" "=" "js"; treat it like the joined form.
	if [ "$prev" = "=" ] && [ "$COMP_CWORD" -ge 2 ] && [ "${COMP_WORDS[COMP_CWORD-2]}" = --format ]; then
		if [ -n "$sub" ]; then
			_sbc_add -W "text json" -- "$cur"
		else
			_sbc_add -W "text json sarif" -- "$cur"
		fi
		return 0
	fi
	if [ "$cur" = "=" ] && [ "$prev" = --format ]; then
		cur=""
		if [ -n "$sub" ]; then
			_sbc_add -W "text json" -- "$cur"
		else
			_sbc_add -W "text json sarif" -- "$cur"
		fi
		return 0
	fi

	case $prev in
	-o) _sbc_files "$cur" sb; return 0 ;;
	-D) return 0 ;;
	--op) _sbc_add -W "$_sbc_ops" -- "$cur"; return 0 ;;
	--vnode) _sbc_add -W "regular-file directory symlink character-device block-device socket fifo tty" -- "$cur"; return 0 ;;
	--path) compopt -o filenames 2>/dev/null; _sbc_add -f -- "$cur"; return 0 ;;
	esac

	case $sub in
	explain)
		case $cur in
		--format=*) _sbc_add -P --format= -W "text json" -- "${cur#--format=}"; return 0 ;;
		-*) _sbc_add -W "--op --path --vnode -D --format= --help" -- "$cur"; return 0 ;;
		esac
		_sbc_files "$cur" sbx sb
		return 0 ;;
	diff)
		case $cur in
		--format=*) _sbc_add -P --format= -W "text json" -- "${cur#--format=}"; return 0 ;;
		-*) _sbc_add -W "-D --format= --help" -- "$cur"; return 0 ;;
		esac
		_sbc_files "$cur" sbx sb
		return 0 ;;
	esac

	case $cur in
	--format=*)
		_sbc_add -P --format= -W "text json sarif" -- "${cur#--format=}"
		return 0 ;;
	-*)
		_sbc_add -W "-o -D -Werror --check --format= --dump-ast --dump-ir --help --version" -- "$cur"
		[ "${COMPREPLY[0]}" = --format= ] && compopt -o nospace 2>/dev/null
		return 0 ;;
	esac
	if [ "$COMP_CWORD" -eq 1 ]; then
		_sbc_add -W "explain diff" -- "$cur"
	fi
	_sbc_files "$cur" sbx
	return 0
}
complete -F _sbc sbc
