/* embed - write a file's bytes as a C array: embed NAME FILE > out.c
 * A build-time helper (no xxd on a fresh Debian), never installed.  */
#include <stdio.h>

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: embed NAME FILE\n");
		return 2;
	}
	FILE *f = fopen(argv[2], "rb");
	if (!f) {
		perror(argv[2]);
		return 1;
	}
	printf("/* generated from %s by tools/embed.c; do not edit */\n", argv[2]);
	printf("#include <stddef.h>\nconst char %s[] = {", argv[1]);
	size_t n = 0;
	int c;
	while ((c = getc(f)) != EOF) {
		printf("%s%d,", n % 20 ? "" : "\n\t", c);
		n++;
	}
	printf("\n\t0\n};\nconst size_t %s_len = %zu;\n", argv[1], n);
	if (ferror(f)) {
		perror(argv[2]);
		return 1;
	}
	fclose(f);
	return 0;
}
