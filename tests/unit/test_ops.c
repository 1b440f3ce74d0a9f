/* Unit tests for compiler/ir/ops.c: the sorted name table behind
 * sb_op_lookup() finds every operation, alias and unmodelled name.  */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>

#include "compiler/ir/ir.h"

Test(ops, every_modelled_name_is_found)
{
	for (int op = 0; op < SB_OP_OTHER; op++)
		cr_assert(eq(int, sb_op_lookup(sb_op_name((sb_op)op)), op), "%s",
			  sb_op_name((sb_op)op));
}

Test(ops, aliases_and_other_names)
{
	cr_assert(eq(int, sb_op_lookup("file-unlink"), SB_OP_FILE_WRITE_UNLINK));
	cr_assert(eq(int, sb_op_lookup("process-exec"), SB_OP_PROCESS_EXEC));
	cr_assert(eq(int, sb_op_lookup("mach-lookup"), SB_OP_OTHER));
	cr_assert(eq(int, sb_op_lookup("user-preference-write"), SB_OP_OTHER));
	cr_assert(eq(int, sb_op_lookup("subpath"), -1));
	cr_assert(eq(int, sb_op_lookup("file-read"), -1));
	cr_assert(eq(int, sb_op_lookup(""), -1));
	cr_assert(eq(int, sb_op_lookup("(other)"), -1));
}
