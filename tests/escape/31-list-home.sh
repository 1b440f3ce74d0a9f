DESC="listing \$HOME and ~/.ssh (stat of \$HOME stays allowed)"
EXPECT=blocked
inside() {
	deny ls "$HOME"
	deny ls "$HOME/.ssh"
	deny ls -a "$HOME/.aws/"
	control stat "$HOME"
	control ls "$HOME/.omp"
}
