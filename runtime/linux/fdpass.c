#ifdef __linux__ /* Linux only; other systems: runtime/linux/linux_other.c */
/* fdpass.c - SCM_RIGHTS descriptor passing (fdpass.h).  */
#include "runtime/linux/fdpass.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

typedef union {
	char buf[CMSG_SPACE(sizeof(int))];
	struct cmsghdr align;
} fd_cmsg;

int sb_fd_send(int sock, int fd)
{
	char byte = 'L';
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	fd_cmsg u;
	memset(&u, 0, sizeof u);
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf,
			    .msg_controllen = sizeof u.buf };
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof fd);
	return sendmsg(sock, &m, MSG_NOSIGNAL) == 1 ? 0 : -1;
}

int sb_fd_hand_over(int sock, int fd)
{
	int r = sb_fd_send(sock, fd);
	int e = errno;
	close(fd);
	close(sock);
	errno = e;
	return r;
}

int sb_fd_recv(int sock)
{
	char byte;
	return sb_fd_recv_byte(sock, &byte);
}

int sb_fd_recv_byte(int sock, char *byte_out)
{
	char byte = 0;
	*byte_out = 0;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	fd_cmsg u;
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf,
			    .msg_controllen = sizeof u.buf };
	ssize_t n;
	do
		n = recvmsg(sock, &m, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n != 1)
		return -1;
	*byte_out = byte;
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	if (!c || c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS ||
	    c->cmsg_len != CMSG_LEN(sizeof(int)))
		return -1;
	int fd;
	memcpy(&fd, CMSG_DATA(c), sizeof fd);
	return fd;
}
#endif /* __linux__ */
