DESC="symlinks into \$HOME that already exist in the workspace at launch"
EXPECT=blocked
STEPS=1
setup() {
	ln -s ../.ssh "$H/proj/sshdir"
	ln -s "$H/notes.txt" "$H/proj/notes"
	ln -s .. "$H/proj/up"
}
inside() {
	[ -L sshdir ] && [ -L notes ] && [ -L up ] && reached "the planted symlinks are in the workspace"
	deny cat sshdir/id_rsa
	deny cat notes
	deny cat up/.aws/credentials
	deny ls sshdir/
	control cat up/proj/readme.txt
}
