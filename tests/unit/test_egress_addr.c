/* Unit tests for sb_addr_is_internal (compiler/ir/egress.c): IPv6 forms
 * that carry an IPv4 address are classified by the address they carry
 * (::127.0.0.1 and 2002:7f00:1:: once passed as external; docs/egress.md).  */
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>

#include "compiler/ir/egress.h"

static bool internal(const char *text)
{
	unsigned char a[16];
	if (inet_pton(AF_INET6, text, a) == 1)
		return sb_addr_is_internal(6, a);
	cr_assert(eq(int, inet_pton(AF_INET, text, a), 1), "%s parses", text);
	return sb_addr_is_internal(4, a);
}

Test(egress_addr, plain_ranges)
{
	cr_assert(internal("127.0.0.1"));
	cr_assert(internal("10.1.2.3"));
	cr_assert(internal("169.254.169.254"));
	cr_assert(not(internal("93.184.216.34")));
	cr_assert(internal("::1"));
	cr_assert(internal("::"));
	cr_assert(internal("fd00::1"));
	cr_assert(internal("fe80::1"));
	cr_assert(internal("fec0::1"), "site-local (deprecated) is not routed outside");
	cr_assert(not(internal("2606:4700::1111")));
}

Test(egress_addr, embedded_loopback_and_private)
{
	/* mapped, compatible, SIIT */
	cr_assert(internal("::ffff:127.0.0.1"));
	cr_assert(internal("::127.0.0.1"));
	cr_assert(internal("::ffff:0:7f00:1"));
	cr_assert(internal("::ffff:0:a00:5"));
	/* NAT64, well-known and local-use prefixes */
	cr_assert(internal("64:ff9b::7f00:1"));
	cr_assert(internal("64:ff9b::a9fe:a9fe"));
	cr_assert(internal("64:ff9b:1::1"));
	/* 6to4 */
	cr_assert(internal("2002:7f00:1::"));
	cr_assert(internal("2002:a9fe:a9fe::1"));
	/* Teredo: server 127.0.0.1, or client 10.0.0.1 (inverted: f5ff:fffe) */
	cr_assert(internal("2001:0:7f00:1::1"));
	cr_assert(internal("2001:0:5db8:1:0:0:f5ff:fffe"));
}

Test(egress_addr, embedded_public_stays_external)
{
	cr_assert(not(internal("::ffff:93.184.216.34")));
	cr_assert(not(internal("::93.184.216.34")));
	cr_assert(not(internal("64:ff9b::5db8:d822")));
	cr_assert(not(internal("2002:5db8:d822::1")));
	/* Teredo with a public server and a public client (inverted 93.184.216.35) */
	cr_assert(not(internal("2001:0:5db8:d822:0:0:a247:27dc")));
}
