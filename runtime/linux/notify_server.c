#ifdef __linux__ /* Linux only; other systems: runtime/linux/linux_other.c */
/* notify_server.c - the listener's serving thread (notify_server.h).  A
 * blocked RECV returns only for a notification or a signal, so the thread
 * is stopped with SERVER_WAKE, whose handler does nothing: the ioctl fails
 * with EINTR and the loop sees `stop`.  */
#include "runtime/linux/notify_server.h"

#include <errno.h>
#include <poll.h>
#include <time.h>

#define SERVER_WAKE SIGURG

static void server_wake(int sig)
{
	(void)sig;
}

static void *server_loop(void *arg)
{
	sb_notify_server *s = arg;
	sigset_t all_but_wake;
	sigfillset(&all_but_wake);
	sigdelset(&all_but_wake, SERVER_WAKE);
	pthread_sigmask(SIG_SETMASK, &all_but_wake, NULL);
	while (!atomic_load(&s->stop))
		if (s->serve(s->ctx) < 0)
			break;   /* hung up: every filtered process is gone */
	return NULL;
}

bool sb_notify_server_start(sb_notify_server *s, sb_serve_fn serve, void *ctx)
{
	s->serve = serve;
	s->ctx = ctx;
	atomic_init(&s->stop, false);
	struct sigaction sa = { .sa_handler = server_wake };   /* no SA_RESTART */
	sigemptyset(&sa.sa_mask);
	sigaction(SERVER_WAKE, &sa, &s->saved);
	s->running = pthread_create(&s->thread, NULL, server_loop, s) == 0;
	if (!s->running)
		sigaction(SERVER_WAKE, &s->saved, NULL);
	return s->running;
}

void sb_notify_server_stop(sb_notify_server *s)
{
	if (!s->running)
		return;
	atomic_store(&s->stop, true);
	/* A wake-up sent between the loop's test and the ioctl is lost: send
	 * it again until the thread has gone.  */
	for (;;) {
		pthread_kill(s->thread, SERVER_WAKE);
		struct timespec t;
		clock_gettime(CLOCK_REALTIME, &t);
		t.tv_nsec += 20 * 1000 * 1000;
		if (t.tv_nsec >= 1000000000L) {
			t.tv_sec++;
			t.tv_nsec -= 1000000000L;
		}
		if (pthread_timedjoin_np(s->thread, NULL, &t) == 0)
			break;
	}
	s->running = false;
	sigaction(SERVER_WAKE, &s->saved, NULL);
}
bool sb_notify_hung_up(int listener)
{
	/* Without waiting: while a filtered process lives RECV blocks again,
	 * and the thread's stop signal must still reach it there.  */
	struct pollfd p = { .fd = listener, .events = POLLIN };
	if (poll(&p, 1, 0) < 0)
		return errno != EINTR;
	return (p.revents & (POLLHUP | POLLERR | POLLNVAL)) && !(p.revents & POLLIN);
}
#endif /* __linux__ */
