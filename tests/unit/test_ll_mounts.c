#ifdef __linux__ /* Linux only; other systems: runtime/linux/linux_other.c */
/* Unit tests: mountinfo parsing (octal escapes, over-mounts) and
 * bind-mount alias computation on sample text.  No kernel needed.  */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/linux/ll_internal.h"
#include "compiler/common/xalloc.h"

static const char sample[] =
	"27 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n"
	"40 27 0:50 / /home rw - tmpfs tmpfs rw\n"
	"41 27 0:50 /alice /mnt/alias rw - tmpfs tmpfs rw\n"
	"42 27 0:50 /alice/.ssh /srv/keys rw - tmpfs tmpfs rw\n"
	"43 27 0:50 / /mnt/whole\\040home rw - tmpfs tmpfs rw\n"
	"44 27 254:0 /usr /opt/usr rw - ext4 /dev/vda rw\n"
	"45 40 0:60 / /home/alice/proj rw - tmpfs tmpfs rw\n"
	"46 40 0:61 / /home/alice/proj rw - tmpfs tmpfs rw\n";

static bool has(char **v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i], s) == 0)
			return true;
	return false;
}

Test(ll_mounts, parse_decodes_escapes)
{
	sb_mounts m;
	sb_mounts_parse(&m, sample);
	cr_assert(eq(sz, m.n, 8));
	cr_assert(eq(str, m.v[4].mountpoint, "/mnt/whole home"));
	cr_assert(eq(str, m.v[1].root, "/"));
	cr_assert(eq(u32, m.v[1].major, 0));
	cr_assert(eq(u32, m.v[1].minor, 50));
	cr_assert(eq(str, m.v[0].fstype, "ext4"));
	cr_assert(eq(str, m.v[4].fstype, "tmpfs"));
	sb_mounts_clear(&m);
}

Test(ll_mounts, fstype_after_optional_fields)
{
	sb_mounts m;
	sb_mounts_parse(&m, "60 27 0:5 / /tmp/c/proc rw shared:7 master:1 - proc proc rw\n"
			    "61 27 0:6 / /tmp/x rw\n");
	cr_assert(eq(sz, m.n, 2));
	cr_assert(eq(str, m.v[0].fstype, "proc"));
	cr_assert(eq(str, m.v[1].fstype, ""));   /* no separator: no type, no crash */
	sb_mounts_clear(&m);
}

Test(ll_mounts, aliases_of_home)
{
	sb_mounts m;
	sb_mounts_parse(&m, sample);
	char **al = NULL;
	bool *same = NULL;
	size_t n = 0;
	sb_mounts_aliases(&m, "/home/alice", &al, &n, &same);
	cr_assert(eq(sz, n, 3));
	cr_assert(has(al, n, "/mnt/alias"));         /* root == the path */
	cr_assert(has(al, n, "/srv/keys"));          /* root inside the path */
	cr_assert(has(al, n, "/mnt/whole home/alice")); /* root is an ancestor */
	for (size_t i = 0; i < n; i++)
		if (strcmp(al[i], "/srv/keys") == 0)
			cr_assert_not(same[i]);
		else
			cr_assert(same[i]);
	sb_strv_free(al, n);
	free(same);
	sb_mounts_clear(&m);
}

Test(ll_mounts, aliases_of_a_file_below)
{
	sb_mounts m;
	sb_mounts_parse(&m, sample);
	char **al = NULL;
	size_t n = 0;
	sb_mounts_aliases(&m, "/home/alice/.ssh/id_rsa", &al, &n, NULL);
	cr_assert(has(al, n, "/mnt/alias/.ssh/id_rsa"));
	cr_assert(has(al, n, "/srv/keys/id_rsa"));
	cr_assert(has(al, n, "/mnt/whole home/alice/.ssh/id_rsa"));
	sb_strv_free(al, n);
	sb_mounts_clear(&m);
}

Test(ll_mounts, root_fs_bind_and_overmount)
{
	sb_mounts m;
	sb_mounts_parse(&m, sample);
	char **al = NULL;
	size_t n = 0;
	sb_mounts_aliases(&m, "/usr/bin", &al, &n, NULL);
	cr_assert(eq(sz, n, 1));
	cr_assert(eq(str, al[0], "/opt/usr/bin"));
	sb_strv_free(al, n);
	/* two mounts on the same point: the last (0:61) holds the path, and the
	 * hidden one is not an alias (another device).  */
	al = NULL;
	n = 0;
	sb_mounts_aliases(&m, "/home/alice/proj/x", &al, &n, NULL);
	cr_assert(eq(sz, n, 0));
	sb_mounts_clear(&m);
}
#endif /* __linux__ */
