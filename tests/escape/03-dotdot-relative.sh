DESC="relative paths and .. from the workspace"
EXPECT=blocked
STEPS=1
inside() {
	[ "$PWD" = "$HOME/proj" ] && reached "in the workspace, one level below \$HOME"
	deny cat ../.ssh/id_rsa
	deny cat ../notes.txt
	deny cat ./src/../../.aws/credentials
	deny ls ..
	deny "$PROBE" write ../PWNED-dotdot
	control cat ../proj/readme.txt
	control cat ../.omp/agent/config.yml
}
