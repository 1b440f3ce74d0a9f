DESC="symlinks planted in the workspace pointing into \$HOME"
EXPECT=blocked
STEPS=1
inside() {
	ln -s "$HOME/.ssh/id_rsa" key
	ln -s "$HOME" h
	ln -s "$HOME/.aws" aws
	[ -L key ] && [ -L h ] && [ -L aws ] && reached "symlinks to \$HOME made in the workspace"
	deny cat key
	deny cat h/notes.txt
	deny cat aws/credentials
	deny ls h/
	deny "$PROBE" write h/PWNED-via-link
	ln -s readme.txt own-link
	control cat own-link
}
