/* fdpass.h - hand a descriptor to another process over a Unix socket
 * (SCM_RIGHTS): the egress proxy's listening socket (egress.c) and the
 * tracer's seccomp listener (trace_notify.c) travel this way.  */
#ifndef SB_FDPASS_H
#define SB_FDPASS_H

/* Send `fd` with one data byte.  Returns 0, or -1 with errno.  */
int sb_fd_send(int sock, int fd);
/* Send `fd`, then close it and `sock` (errno kept): a seccomp listener
 * leaves the sandboxed side this way, which must never keep it (it could
 * answer its own notifications).  */
int sb_fd_hand_over(int sock, int fd);
/* Receive one descriptor (close-on-exec), retrying on EINTR.  Returns it,
 * or -1 (errno set by recvmsg, or a message without exactly one
 * descriptor).  */
int sb_fd_recv(int sock);
/* The same, and the data byte in *byte (0 when nothing came): a message
 * without a descriptor returns -1 with its byte.  */
int sb_fd_recv_byte(int sock, char *byte);

#endif
