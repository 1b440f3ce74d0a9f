# bash completion for omp-sandboxed(1) - run omp in a sandbox.
# Its own options come first; every other argument goes to omp.

_omp_sandboxed()
{
	local cur=${COMP_WORDS[COMP_CWORD]} w
	COMPREPLY=()
	if [ "$COMP_CWORD" -eq 1 ]; then
		case $cur in
		-*)
			while IFS= read -r w; do COMPREPLY+=("$w"); done \
				< <(compgen -W "--self-test --print-profile --sandbox-run --sandbox-help --sandbox-version --auto-approve --version --help" -- "$cur")
			return 0 ;;
		esac
	fi
	case ${COMP_WORDS[1]} in
	--self-test|--print-profile|--sandbox-help|--sandbox-version) return 0 ;;
	--sandbox-run)
		# the command, then its own arguments (files)
		if [ "$COMP_CWORD" -eq 2 ]; then
			while IFS= read -r w; do COMPREPLY+=("$w"); done < <(compgen -c -- "$cur")
			return 0
		fi ;;
	esac
	compopt -o filenames 2>/dev/null || true
	while IFS= read -r w; do COMPREPLY+=("$w"); done < <(compgen -f -- "$cur")
	return 0
}
complete -F _omp_sandboxed omp-sandboxed
