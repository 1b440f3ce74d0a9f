DESC="/proc/self/root and /proc/thread-self/root paths into \$HOME"
EXPECT=blocked
STEPS=1
inside() {
	cat "/proc/self/root$HOME/proj/readme.txt" >/dev/null 2>&1 && reached "/proc/self/root leads into the workspace"
	deny cat "/proc/self/root$HOME/.ssh/id_rsa"
	deny cat "/proc/thread-self/root$HOME/notes.txt"
	deny cat "/proc/$$/root/proc/self/root$HOME/.aws/credentials"
	deny ls "/proc/self/root$HOME/"
	control cat "/proc/self/root$HOME/proj/readme.txt"
}
