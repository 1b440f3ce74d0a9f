/* textesc.c - escaping for terminal output (see textesc.h).  */
#include "runtime/common/textesc.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at p (at most n bytes) and its code
 * point; 0 when invalid (overlong, surrogate, above U+10FFFF, cut).  */
static size_t utf8_decode(const unsigned char *p, size_t n, uint32_t *cp)
{
	size_t len;
	uint32_t min;
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		len = 2, min = 0x80, *cp = p[0] & 0x1f;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		len = 3, min = 0x800, *cp = p[0] & 0x0f;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		len = 4, min = 0x10000, *cp = p[0] & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		*cp = *cp << 6 | (p[i] & 0x3f);
	}
	if (*cp < min || *cp > 0x10ffff || (*cp >= 0xd800 && *cp <= 0xdfff))
		return 0;
	return len;
}

/* Characters a terminal acts on or that reorder or break the line.  */
static bool unprintable(uint32_t cp)
{
	return (cp >= 0x80 && cp <= 0x9f) ||            /* C1 controls: CSI, OSC, NEL */
	       cp == 0x2028 || cp == 0x2029 ||          /* line, paragraph separator */
	       (cp >= 0x200b && cp <= 0x200f) ||        /* zero-width, LRM, RLM */
	       (cp >= 0x202a && cp <= 0x202e) ||        /* bidi embeddings, overrides */
	       (cp >= 0x2066 && cp <= 0x2069) ||        /* bidi isolates */
	       cp == 0xfeff || (cp >= 0xfff9 && cp <= 0xfffb) || cp == 0x61c ||
	       (cp >= 0xe0000 && cp <= 0xe007f);        /* tags */
}

/* One escaped unit of s[0..n) into buf (at most 12 bytes + NUL); returns
 * the bytes of s it covers.  */
static size_t unit(const unsigned char *s, size_t n, char *buf)
{
	uint32_t cp;
	if (*s == '\\') {
		strcpy(buf, "\\\\");
		return 1;
	}
	if (*s >= 0x20 && *s < 0x7f) {
		buf[0] = (char)*s;
		buf[1] = '\0';
		return 1;
	}
	size_t len = *s >= 0x80 ? utf8_decode(s, n, &cp) : 0;
	if (!len) {
		snprintf(buf, 13, "\\x%02x", *s);
		return 1;
	}
	if (unprintable(cp))
		snprintf(buf, 13, "\\u{%04x}", (unsigned)cp);
	else {
		memcpy(buf, s, len);
		buf[len] = '\0';
	}
	return len;
}

void sb_text_put(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);
	char buf[16];
	while (n) {
		size_t k = unit(p, n, buf);
		fputs(buf, f);
		p += k;
		n -= k;
	}
}

void sb_text_escape(char *out, size_t size, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0;
	char buf[16];
	if (!size)
		return;
	while (n) {
		size_t k = unit(p, n, buf), bl = strlen(buf);
		if (o + bl >= size)
			break;
		memcpy(out + o, buf, bl);
		o += bl;
		p += k;
		n -= k;
	}
	out[o] = '\0';
}
