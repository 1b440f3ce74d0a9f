/* Unit tests for compiler/common/file.c: the one whole-file reader, on
 * files this test makes in its own temporary directory.  */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/common/file.h"

static char dir[64];

static void setup(void)
{
	strcpy(dir, "/tmp/sb-test-file.XXXXXX");
	cr_assert(mkdtemp(dir) != NULL);
}

static void teardown(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_assert(eq(int, system(cmd), 0));
}

static char *put(const char *name, const char *text, size_t n)
{
	static char p[128];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	cr_assert(fd >= 0);
	cr_assert(eq(sz, (size_t)write(fd, text, n), n));
	close(fd);
	return p;
}

TestSuite(file, .init = setup, .fini = teardown);

Test(file, whole_text_nul_terminated_embedded_nul_kept)
{
	size_t len = 99;
	char *t = sb_file_read(put("a", "ab\0cd\n", 6), 0, &len);
	cr_assert(t != NULL);
	cr_assert(eq(sz, len, 6));
	cr_assert(eq(int, memcmp(t, "ab\0cd\n", 7), 0));   /* and the NUL after */
	free(t);
	t = sb_file_read(put("e", "", 0), 0, &len);
	cr_assert(t != NULL);
	cr_assert(eq(sz, len, 0));
	cr_assert(eq(int, t[0], 0));
	free(t);
}

Test(file, larger_than_a_buffer_and_the_limit)
{
	size_t n = 100000, len = 0;
	char *big = malloc(n);
	memset(big, 'x', n);
	char *p = put("big", big, n);
	char *t = sb_file_read(p, 0, &len);
	cr_assert(t != NULL);
	cr_assert(eq(sz, len, n));
	cr_assert(eq(int, memcmp(t, big, n), 0));
	free(t);
	t = sb_file_read(p, n, &len);   /* exactly the limit: read */
	cr_assert(t != NULL);
	free(t);
	errno = 0;
	cr_assert(sb_file_read(p, n - 1, &len) == NULL);
	cr_assert(eq(int, errno, EFBIG));
	free(big);
}

Test(file, procfs_file_of_size_zero_is_read_to_its_end)
{
	size_t len = 0;
	char *t = sb_file_read("/proc/self/mountinfo", 0, &len);
	cr_assert(t != NULL);
	cr_assert(gt(sz, len, 0));
	cr_assert(eq(sz, strlen(t), len));
	free(t);
}

Test(file, missing_directory_and_fifo_refused_with_errno)
{
	char p[128];
	size_t len = 7;
	snprintf(p, sizeof p, "%s/none", dir);
	errno = 0;
	cr_assert(sb_file_read(p, 0, &len) == NULL);
	cr_assert(eq(int, errno, ENOENT));
	errno = 0;
	cr_assert(sb_file_read(dir, 0, &len) == NULL);
	cr_assert(eq(int, errno, EINVAL));
	snprintf(p, sizeof p, "%s/fifo", dir);
	cr_assert(eq(int, mkfifo(p, 0600), 0));
	errno = 0;
	cr_assert(sb_file_read(p, 0, &len) == NULL);   /* never waits for a writer */
	cr_assert(eq(int, errno, EINVAL));
	cr_assert(eq(sz, len, 7));                      /* untouched on failure */
}
