/* origin.c - origin records (origin.h).  */
#include "compiler/ir/origin.h"

#include <stdbool.h>
#include <string.h>
#include "compiler/common/xalloc.h"

const sb_origin *sb_origin_new(sb_diag *d, const char *file, int line, int col, const char *text,
			       size_t len)
{
	sb_origin *o = sb_diag_keep(d, sizeof *o);
	o->file = sb_diag_intern(d, file);
	o->line = line;
	o->col = col;
	o->text = text;
	o->len = text ? len : 0;
	return o;
}

char *sb_origin_where(const sb_origin *o)
{
	return o->line > 0 ? xasprintf("%s:%d", o->file, o->line) : xstrdup(o->file);
}

char *sb_origin_line_text(const sb_origin *o)
{
	if (!o || !o->text)
		return NULL;
	const char *p = o->text, *end = o->text + o->len;
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	const char *e = nl ? nl : end;
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	const char *stop = p;
	bool in_str = false;
	for (; stop < e; stop++) {
		if (*stop == '"')
			in_str = !in_str;
		if (!in_str && (*stop == ';' || *stop == '#'))
			break;
	}
	bool cont = stop == e;   /* the statement goes on past this line */
	while (stop > p && (stop[-1] == ' ' || stop[-1] == '\t'))
		stop--;
	if (stop == p)
		return NULL;
	return xasprintf("%.*s%s", (int)(stop - p), p, cont ? " ..." : "");
}
