/* notify_server.h - a thread that serves a seccomp listener, blocked in
 * SECCOMP_IOCTL_NOTIF_RECV: a notification costs the supervisor no
 * poll(2) (bench/analysis.md, 8), and the main thread waits for the
 * child, its signals and other events.  Used by the trace (trace_run.c)
 * and the write gate (gate_run.c).  */
#ifndef SB_NOTIFY_SERVER_H
#define SB_NOTIFY_SERVER_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>

/* Serve one notification: 0, or -1 when the listener has hung up.  */
typedef int (*sb_serve_fn)(void *ctx);

typedef struct sb_notify_server {
	sb_serve_fn serve;
	void *ctx;
	pthread_t thread;
	atomic_bool stop;
	bool running;
	struct sigaction saved;
} sb_notify_server;

/* Start the thread; false when it could not be (the caller then serves
 * by polling the listener itself).  */
bool sb_notify_server_start(sb_notify_server *s, sb_serve_fn serve, void *ctx);
/* Stop it and wait for it (no-op when not running).  */
void sb_notify_server_stop(sb_notify_server *s);

/* After RECV failed with ENOENT: true when the listener has hung up (no
 * process has the filter any more), false when a caller was only killed
 * meanwhile.  Once the last filtered process is gone RECV fails with
 * ENOENT at once instead of blocking, so a loop that took ENOENT for a
 * withdrawn call spun until it was stopped (bench/analysis.md, 8).  */
bool sb_notify_hung_up(int listener);

#endif
