DESC="secrets and loader-injection variables in the parent environment"
EXPECT=blocked
STEPS=1
setup() {
	printf 'echo PWNED >/mnt/PWNED-bashenv\n' >/mnt/esc-bashenv
}
launch() {
	run_inside OPENAI_API_KEY="$TOK-openai" ANTHROPIC_API_KEY="$TOK-anthropic" \
		AWS_SECRET_ACCESS_KEY="$TOK-awsenv" LD_PRELOAD=/mnt/esc-nonexistent.so \
		BASH_ENV=/mnt/esc-bashenv ENV=/mnt/esc-bashenv NODE_OPTIONS=--require=/mnt/x
}
inside() {
	local e
	e=$(cat /proc/self/environ | tr '\0' '\n')
	case $e in *PATH=*) ;; *) echo "CONTROL-FAIL: the environment could not be read" ;; esac
	printf '%s\n' "$e" | sed 's/^/    env: /'
	case $e in *PATH=*) reached "the environment inside was read" ;; esac
	case $e in *LD_PRELOAD*|*BASH_ENV*|*NODE_OPTIONS*|*API_KEY*) echo "ESCAPED: a secret or loader variable passed" ;; esac
}
