DESC="symlinks planted in the workspace pointing into \$HOME"
EXPECT=blocked
inside() {
	ln -s "$HOME/.ssh/id_rsa" key
	ln -s "$HOME" h
	ln -s "$HOME/.aws" aws
	deny cat key
	deny cat h/notes.txt
	deny cat aws/credentials
	deny ls h/
	deny "$PROBE" write h/PWNED-via-link
	ln -s readme.txt own-link
	control cat own-link
}
