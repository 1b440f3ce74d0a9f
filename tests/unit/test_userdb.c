/* Unit tests for runtime/common/userdb.c: the passwd(5) reader behind the
 * home verification's shortcut (no NSS when HOME agrees with /etc/passwd).  */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/common/userdb.h"

static char *home_of(const char *text, uid_t uid)
{
	return sb_passwd_home(text, strlen(text), uid);
}

Test(userdb, finds_the_first_entry_of_the_uid)
{
	const char *t = "root:x:0:0:root:/root:/bin/bash\n"
			"alice:x:1000:1000:Alice,,,:/home/alice:/bin/zsh\n"
			"alias:x:1000:1000::/srv/other:/bin/sh\n";
	char *h = home_of(t, 1000);
	cr_assert(eq(str, h, "/home/alice"));
	free(h);
	h = home_of(t, 0);
	cr_assert(eq(str, h, "/root"));
	free(h);
	cr_assert(eq(ptr, home_of(t, 1001), NULL));
	cr_assert(eq(ptr, home_of(t, 100), NULL), "a prefix of a uid is not the uid");
}

Test(userdb, skips_malformed_and_nis_lines)
{
	const char *t = "broken:x:1000:1000:/home/broken\n"          /* six fields */
			"extra:x:1000:1000::/home/extra:/bin/sh:more\n" /* eight */
			"+nis:x:1000:1000::/home/nis:/bin/sh\n"
			"sign:x:+1000:1000::/home/sign:/bin/sh\n"
			"\n"
			"good:x:1000:1000::/home/good:/bin/sh";         /* no final newline */
	char *h = home_of(t, 1000);
	cr_assert(eq(str, h, "/home/good"));
	free(h);
	cr_assert(eq(ptr, home_of("", 0), NULL));
	cr_assert(eq(ptr, home_of("x:x:99999999999:0::/h:/s\n", 0), NULL), "out of range");
}

Test(userdb, an_empty_home_field_is_returned_as_empty)
{
	char *h = home_of("nohome:x:7:7:::/bin/sh\n", 7);
	cr_assert(eq(str, h, ""));
	free(h);
}

Test(userdb, user_home_answers_for_this_process)
{
	/* whatever the database says for this uid, with or without the
	 * shortcut: a HOME that disagrees is asked of getpwuid() */
	char *a = sb_user_home(getuid(), NULL);
	char *b = sb_user_home(getuid(), "/nonexistent/not-the-home");
	cr_assert(eq(int, a == NULL, b == NULL));
	if (a) {
		cr_assert(eq(str, a, b));
		char *c = sb_user_home(getuid(), a);   /* consistent: same answer */
		cr_assert(eq(str, c, a));
		free(c);
	}
	free(a);
	free(b);
}
