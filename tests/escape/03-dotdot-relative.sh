DESC="relative paths and .. from the workspace"
EXPECT=blocked
inside() {
	deny cat ../.ssh/id_rsa
	deny cat ../notes.txt
	deny cat ./src/../../.aws/credentials
	deny ls ..
	deny "$PROBE" write ../PWNED-dotdot
	control cat ../proj/readme.txt
	control cat ../.omp/agent/config.yml
}
