# bash completion for sbrun(1) - run a command under a compiled profile.
# Self-contained: works with or without the bash-completion package.

_sbrun_add()
{
	local w
	while IFS= read -r w; do
		COMPREPLY+=("$w")
	done < <(compgen "$@")
}

_sbrun()
{
	local cur=${COMP_WORDS[COMP_CWORD]}
	COMPREPLY=()
	# Find the profile (first non-option word) and the command after it.
	local i w profile_at=0 cmd_at=0 info=0
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		if [ "$profile_at" -eq 0 ]; then
			case $w in
			--doctor|--help|--version) info=1 ;;
			-D|--require-abi) ((i++)) ;;
			# bash splits "-D N=V" at '=' (COMP_WORDBREAKS): skip "=" and V.
			=) ((i++)) ;;
			-*) ;;
			*) profile_at=$i ;;
			esac
		elif [ "$cmd_at" -eq 0 ]; then
			[ "$w" = -- ] || cmd_at=$i
		fi
		case $w in
		--print-profile|--print-launch|--plan|--self-test) info=1 ;;
		esac
	done
	[ "$info" -eq 1 ] && [ "$profile_at" -ne 0 ] && return 0
	# -D NAME=VALUE: nothing to offer.
	case ${COMP_WORDS[COMP_CWORD-1]} in
	-D|=) return 0 ;;
	--require-abi) _sbrun_add -W "1 2 3 4 5 6 7" -- "$cur"; return 0 ;;
	esac

	if [ "$profile_at" -eq 0 ]; then
		case $cur in
		-*)
			_sbrun_add -W "-D --print-profile --print-launch --plan --self-test --doctor --allow-unsandboxed --allow-unenforceable --require-abi --debug-denials --allow-shm --mechanism --write-gate --keep-background --help --version" -- "$cur"
			return 0 ;;
		esac
		[ "$info" -eq 1 ] && [ "${COMP_WORDS[1]}" != --print-profile ] && [ "${COMP_WORDS[1]}" != --print-launch ] && [ "${COMP_WORDS[1]}" != --plan ] &&
			[ "${COMP_WORDS[1]}" != --self-test ] && return 0
		_sbrun_add -f -X '!*.sb' -- "$cur"
		while IFS= read -r w; do COMPREPLY+=("$w/"); done < <(compgen -d -- "$cur")
		compopt -o filenames -o nospace 2>/dev/null || true
		return 0
	fi
	if [ "$cmd_at" -eq 0 ]; then
		# The command: a program name, or -- before it.
		_sbrun_add -c -- "$cur"
		case $cur in ""|-|--) COMPREPLY+=(--) ;; esac
		return 0
	fi
	# Arguments of the command: files.
	compopt -o filenames 2>/dev/null || true
	_sbrun_add -f -- "$cur"
	return 0
}
complete -F _sbrun sbrun
