DESC="listing \$HOME and ~/.ssh (stat of \$HOME stays allowed)"
EXPECT=blocked
STEPS=1
inside() {
	deny ls "$HOME"
	deny ls "$HOME/.ssh"
	deny ls -a "$HOME/.aws/"
	control stat "$HOME"
	stat "$HOME" >/dev/null 2>&1 && reached "\$HOME can be stat-ed"
	control ls "$HOME/.omp"
}
