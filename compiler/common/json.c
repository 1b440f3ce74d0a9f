/* json.c - JSON strings for arbitrary bytes (json.h).  */
#include "compiler/common/json.h"

#include <string.h>

/* Length of the valid UTF-8 sequence at p (RFC 3629, table 3-7 of the
 * Unicode standard), or 0 when the byte at p does not start one.  */
static size_t utf8_len(const unsigned char *p)
{
	unsigned char c = p[0];
	if (c < 0x80)
		return 1;
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		if (c == 0xe0)
			lo = 0xa0;           /* no overlong forms */
		else if (c == 0xed)
			hi = 0x9f;           /* no surrogates */
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;           /* nothing above U+10FFFF */
	} else {
		return 0;
	}
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

bool sb_json_is_utf8(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p;) {
		size_t n = utf8_len(p);
		if (!n)
			return false;
		p += n;
	}
	return true;
}

void sb_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p;) {
		unsigned char c = *p;
		size_t n = utf8_len(p);
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else if (n)
			fwrite(p, 1, n, f);
		else
			fputs("\\ufffd", f);
		p += n ? n : 1;
	}
	fputc('"', f);
}

void sb_json_escaped_bytes(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p;) {
		size_t n = utf8_len(p);
		if (*p == '\\')
			fputs("\\\\\\\\", f);           /* the text \\ */
		else if (!n)
			fprintf(f, "\\\\x%02x", *p);    /* the text \xHH */
		else if (*p == '"')
			fputs("\\\"", f);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "\\u%04x", *p);
		else
			fwrite(p, 1, n, f);
		p += n ? n : 1;
	}
	fputc('"', f);
}

void sb_json_bytes_member(FILE *f, const char *key, const char *sep, const char *s)
{
	sb_json_string(f, key);
	fputs(sep, f);
	sb_json_string(f, s);
	if (sb_json_is_utf8(s))
		return;
	fputc(',', f);
	if (sep[0] == ' ' || sep[1] == ' ')
		fputc(' ', f);
	fprintf(f, "\"%s_escaped\"%s", key, sep);
	sb_json_escaped_bytes(f, s);
}

void sb_json_uri(FILE *f, const char *s)
{
	static const char unreserved[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/";
	s = s ? s : "";
	/* An absolute path is a file: URI; a relative one a relative reference. */
	fputs(s[0] == '/' ? "\"file://" : "\"", f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (strchr(unreserved, *p))
			fputc(*p, f);
		else
			fprintf(f, "%%%02X", *p);
	}
	fputc('"', f);
}
