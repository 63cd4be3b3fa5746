// SPDX-License-Identifier: MIT
/*
 * The event loop (loop.h): epoll, level-triggered, plus one timerfd armed at
 * the earliest absolute deadline of a timer min-heap and one eventfd for
 * cross-thread wakes. The timerfd is re-armed only before a blocking wait
 * and only when the earliest deadline changed, so starting and stopping
 * timers on the datapath costs no syscall.
 *
 * The loop is the bottom of the core: NAPI's poll lists run in its
 * deferred-work stage, which napi.c attaches (loop_priv.h); nothing here
 * knows what a poller is.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/timerfd.h>

#include "ethdrv/loop.h"
#include "ethdrv/stats.h"
#include "loop_priv.h"

#define LOOP_MAX_EVENTS 64 /* epoll events taken per wait */

struct ethdrv_loop {
	int epfd; /* the epoll instance (level-triggered) */
	int timer_fd; /* timerfd, armed at the earliest deadline (absolute) */
	int wake_fd; /* eventfd for cross-thread wakes and stop */
	struct ethdrv_watch timer_watch; /* internal watcher of timer_fd */
	struct ethdrv_watch wake_watch; /* internal watcher of wake_fd */

	struct ethdrv_timer **heap; /* min-heap of active timers by deadline */
	unsigned heap_len; /* active timers */
	unsigned heap_cap; /* allocated slots */
	uint64_t armed_ns; /* deadline timer_fd is armed for, 0 = disarmed */

	pthread_t thread; /* the loop thread, valid once thread_set */
	int thread_set; /* atomic: thread recorded (first run) */
	int stop; /* atomic: ethdrv_loop_stop() was called */
	int sleeping; /* atomic: the loop is in (or about to enter) a blocking wait */

	ethdrv_loop_hook before_sleep; /* hook run before each blocking wait */
	void *before_sleep_arg; /* its argument */
	unsigned budget_packets; /* netdev_budget (atomic) */
	unsigned budget_usecs; /* netdev_budget_usecs (atomic) */

	struct epoll_event events[LOOP_MAX_EVENTS]; /* the current ready batch */
	int nready; /* entries in events */
	int cur; /* entry being dispatched; ethdrv_watch_stop() clears later ones */

	struct ethdrv__loop_softirq *softirq; /* atomic: the deferred-work stage, or NULL */
	struct ethdrv_softirq_config softirq_cfg; /* hand-off limits (set before the loop runs) */
	int ksoftirqd_tid; /* atomic: the stage's ksoftirqd thread, 0 = none yet */
	bool irq_exit; /* this iteration ran a watcher's callback or a timer (loop thread) */

	pthread_mutex_t calls_lock; /* protects calls and calls_open */
	pthread_cond_t calls_cond; /* a call finished */
	struct loop_call *calls; /* ethdrv_loop_call() requests waiting for the thread */
	bool calls_open; /* a thread runs the loop and will take calls */

	struct {
		ethdrv_counter_t iterations, sleeps, wakeups, wakes_sent;
		ethdrv_counter_t processed, time_squeeze, timers_fired;
		ethdrv_counter_t softirq_runs, budget_exhausted, time_exhausted;
		ethdrv_counter_t ksoftirqd_handoffs, ksoftirqd_runs, irq_exit_runs;
	} st; /* ethdrv_loop_stats, updated atomically */
};

/* One ethdrv_loop_call() waiting for the loop thread. */
struct loop_call {
	void (*fn)(void *arg); /* what to run */
	void *arg; /* its argument */
	bool done; /* ran (under calls_lock) */
	struct loop_call *next; /* next waiting call */
};

_Static_assert(ETHDRV_EV_READ == EPOLLIN, "EV_READ must equal EPOLLIN");
_Static_assert(ETHDRV_EV_WRITE == EPOLLOUT, "EV_WRITE must equal EPOLLOUT");
_Static_assert(ETHDRV_EV_ERR == EPOLLERR, "EV_ERR must equal EPOLLERR");
_Static_assert(ETHDRV_EV_HUP == EPOLLHUP, "EV_HUP must equal EPOLLHUP");

#define NSEC_PER_SEC 1000000000ull
#define LOOP_HEAP_MIN 16 /* initial timer heap slots */

uint64_t ethdrv_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

uint64_t ethdrv_thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

void ethdrv_sleep_until_ns(uint64_t deadline_ns)
{
	struct timespec ts = { .tv_sec = (time_t)(deadline_ns / NSEC_PER_SEC),
			       .tv_nsec = (long)(deadline_ns % NSEC_PER_SEC) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* ---- timer heap ---- */

static void heap_place(struct ethdrv_loop *loop, struct ethdrv_timer *t, unsigned i)
{
	loop->heap[i] = t;
	t->heap_idx = i;
}

static void heap_sift_up(struct ethdrv_loop *loop, unsigned i)
{
	struct ethdrv_timer *t = loop->heap[i];

	while (i > 0) {
		unsigned p = (i - 1) / 2;

		if (loop->heap[p]->deadline_ns <= t->deadline_ns)
			break;
		heap_place(loop, loop->heap[p], i);
		i = p;
	}
	heap_place(loop, t, i);
}

static void heap_sift_down(struct ethdrv_loop *loop, unsigned i)
{
	struct ethdrv_timer *t = loop->heap[i];

	for (;;) {
		unsigned c = 2 * i + 1;

		if (c >= loop->heap_len)
			break;
		if (c + 1 < loop->heap_len &&
		    loop->heap[c + 1]->deadline_ns < loop->heap[c]->deadline_ns)
			c++;
		if (t->deadline_ns <= loop->heap[c]->deadline_ns)
			break;
		heap_place(loop, loop->heap[c], i);
		i = c;
	}
	heap_place(loop, t, i);
}

static void heap_remove(struct ethdrv_loop *loop, struct ethdrv_timer *t)
{
	unsigned i = t->heap_idx;
	struct ethdrv_timer *last = loop->heap[--loop->heap_len];

	t->heap_idx = ~0u;
	if (i == loop->heap_len)
		return;
	heap_place(loop, last, i);
	heap_sift_down(loop, i);
	heap_sift_up(loop, last->heap_idx);
}

static int heap_reserve(struct ethdrv_loop *loop)
{
	struct ethdrv_timer **h;
	unsigned cap;

	if (loop->heap_len < loop->heap_cap)
		return 0;
	cap = loop->heap_cap ? loop->heap_cap * 2 : LOOP_HEAP_MIN;
	h = realloc(loop->heap, cap * sizeof(*h));
	if (!h)
		return -ENOMEM;
	loop->heap = h;
	loop->heap_cap = cap;
	return 0;
}

void ethdrv_timer_init(struct ethdrv_loop *loop, struct ethdrv_timer *t, ethdrv_timer_cb cb)
{
	t->loop = loop;
	t->deadline_ns = 0;
	t->period_ns = 0;
	t->heap_idx = ~0u;
	t->cb = cb;
}

int ethdrv_timer_start_at(struct ethdrv_timer *t, uint64_t deadline_ns, uint64_t period_ns)
{
	struct ethdrv_loop *loop = t->loop;
	int ret;

	t->deadline_ns = deadline_ns;
	t->period_ns = period_ns;
	if (ethdrv_timer_is_active(t)) {
		heap_sift_up(loop, t->heap_idx);
		heap_sift_down(loop, t->heap_idx);
		return 0;
	}
	ret = heap_reserve(loop);
	if (ret)
		return ret;
	heap_place(loop, t, loop->heap_len++);
	heap_sift_up(loop, t->heap_idx);
	return 0;
}

int ethdrv_timer_start(struct ethdrv_timer *t, uint64_t delay_ns, uint64_t period_ns)
{
	return ethdrv_timer_start_at(t, ethdrv_now_ns() + delay_ns, period_ns);
}

void ethdrv_timer_stop(struct ethdrv_timer *t)
{
	if (ethdrv_timer_is_active(t))
		heap_remove(t->loop, t);
}

/* Run expired timers; a timer re-armed at or before now waits for the next round. */
static int loop_run_timers(struct ethdrv_loop *loop)
{
	unsigned limit = loop->heap_len;
	uint64_t now;
	int n = 0;

	if (!loop->heap_len)
		return 0;
	now = ethdrv_now_ns();
	while (loop->heap_len && loop->heap[0]->deadline_ns <= now && (unsigned)n < limit) {
		struct ethdrv_timer *t = loop->heap[0];

		if (t->period_ns) {
			/* Skip missed periods; the grid stays deadline + k*period. */
			uint64_t k = (now - t->deadline_ns) / t->period_ns + 1;

			t->deadline_ns += k * t->period_ns;
			heap_sift_down(loop, 0);
		} else {
			heap_remove(loop, t);
		}
		n++;
		t->cb(t);
	}
	ethdrv_counter_add(&loop->st.timers_fired, (uint64_t)n);
	return n;
}

/* Arm the timerfd for the earliest deadline if that changed. */
static void loop_timerfd_sync(struct ethdrv_loop *loop)
{
	uint64_t want = loop->heap_len ? loop->heap[0]->deadline_ns : 0;
	struct itimerspec its;

	if (want == loop->armed_ns)
		return;
	memset(&its, 0, sizeof(its));
	its.it_value.tv_sec = (time_t)(want / NSEC_PER_SEC);
	its.it_value.tv_nsec = (long)(want % NSEC_PER_SEC);
	if (want && !its.it_value.tv_sec && !its.it_value.tv_nsec)
		its.it_value.tv_nsec = 1;
	if (timerfd_settime(loop->timer_fd, TFD_TIMER_ABSTIME, &its, NULL) == 0)
		loop->armed_ns = want;
}

static bool loop_timer_due(const struct ethdrv_loop *loop)
{
	return loop->heap_len && loop->heap[0]->deadline_ns <= ethdrv_now_ns();
}

/* ---- watchers ---- */

static int loop_epoll_ctl(struct ethdrv_loop *loop, struct ethdrv_watch *w, int op, unsigned events)
{
	struct epoll_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.events = events & (EPOLLIN | EPOLLOUT);
	ev.data.ptr = w;
	if (epoll_ctl(loop->epfd, op, w->fd, &ev) < 0)
		return -errno;
	return 0;
}

int ethdrv_watch_start(struct ethdrv_loop *loop, struct ethdrv_watch *w, int fd, unsigned events,
		       ethdrv_watch_cb cb)
{
	int ret;

	if (!loop || !w || fd < 0 || !cb)
		return -EINVAL;
	w->fd = fd;
	w->cb = cb;
	__atomic_store_n(&w->events, events, __ATOMIC_RELAXED);
	__atomic_store_n(&w->loop, loop, __ATOMIC_RELEASE);
	ret = loop_epoll_ctl(loop, w, EPOLL_CTL_ADD, events);
	if (ret)
		__atomic_store_n(&w->loop, NULL, __ATOMIC_RELEASE);
	return ret;
}

/*
 * Safe against a concurrent caller (napi masks an IRQ in the loop thread and
 * may unmask it from a poller thread; epoll_ctl itself is thread-safe):
 * w->events is the truth, and whoever changed it re-applies it until the
 * epoll registration it last wrote matches, so the last change wins.
 */
int ethdrv_watch_set(struct ethdrv_watch *w, unsigned events)
{
	unsigned old = __atomic_exchange_n(&w->events, events, __ATOMIC_SEQ_CST);
	/* A poller may unmask just after its complete while the loop thread
	 * stops the watcher (disable, then detach): the MOD then fails. */
	struct ethdrv_loop *loop = __atomic_load_n(&w->loop, __ATOMIC_ACQUIRE);
	int ret;

	if (old == events || !loop)
		return 0;
	for (;;) {
		ret = loop_epoll_ctl(loop, w, EPOLL_CTL_MOD, events);
		if (ret)
			return ret;
		old = events;
		events = __atomic_load_n(&w->events, __ATOMIC_SEQ_CST);
		if (events == old)
			return 0;
	}
}

void ethdrv_watch_stop(struct ethdrv_watch *w)
{
	struct ethdrv_loop *loop = __atomic_load_n(&w->loop, __ATOMIC_ACQUIRE);
	int i;

	if (!loop)
		return;
	__atomic_store_n(&w->loop, NULL, __ATOMIC_RELEASE);
	epoll_ctl(loop->epfd, EPOLL_CTL_DEL, w->fd, NULL);
	/* Drop events of this watcher still waiting in the current batch. */
	for (i = loop->cur + 1; i < loop->nready; i++)
		if (loop->events[i].data.ptr == w)
			loop->events[i].data.ptr = NULL;
}

static void loop_signal(struct ethdrv_loop *loop)
{
	uint64_t one = 1;

	/* EAGAIN means the counter is saturated: a wake is pending anyway. */
	while (write(loop->wake_fd, &one, sizeof(one)) < 0 && errno == EINTR)
		;
}

static void loop_drain_fd(int fd)
{
	uint64_t v;

	while (read(fd, &v, sizeof(v)) < 0 && errno == EINTR)
		;
}

/* Run the waiting ethdrv_loop_call()s; @close: the loop stops taking calls. */
static void loop_run_calls(struct ethdrv_loop *loop, bool close)
{
	struct loop_call *c;

	pthread_mutex_lock(&loop->calls_lock);
	if (close)
		loop->calls_open = false;
	while ((c = loop->calls)) {
		loop->calls = c->next;
		pthread_mutex_unlock(&loop->calls_lock);
		c->fn(c->arg);
		pthread_mutex_lock(&loop->calls_lock);
		c->done = true;
		pthread_cond_broadcast(&loop->calls_cond);
	}
	pthread_mutex_unlock(&loop->calls_lock);
}

void ethdrv_loop_call(struct ethdrv_loop *loop, void (*fn)(void *arg), void *arg)
{
	struct loop_call c = { .fn = fn, .arg = arg };

	if (ethdrv_loop_in_thread(loop)) {
		fn(arg);
		return;
	}
	pthread_mutex_lock(&loop->calls_lock);
	if (!loop->calls_open) {
		/* No thread takes calls: the caller owns the loop now. */
		pthread_mutex_unlock(&loop->calls_lock);
		fn(arg);
		return;
	}
	c.next = loop->calls;
	loop->calls = &c;
	loop_signal(loop);
	while (!c.done)
		pthread_cond_wait(&loop->calls_cond, &loop->calls_lock);
	pthread_mutex_unlock(&loop->calls_lock);
}

/* Run the callbacks of one ready batch; returns the user events dispatched. */
static int loop_dispatch(struct ethdrv_loop *loop)
{
	int n = 0;

	for (loop->cur = 0; loop->cur < loop->nready; loop->cur++) {
		struct epoll_event *ev = &loop->events[loop->cur];
		struct ethdrv_watch *w = ev->data.ptr;
		unsigned want, got;

		if (!w)
			continue;
		if (w == &loop->timer_watch) {
			loop_drain_fd(loop->timer_fd);
			loop->armed_ns = 0; /* an expired absolute timerfd is disarmed */
			continue;
		}
		if (w == &loop->wake_watch) {
			loop_drain_fd(loop->wake_fd);
			loop_run_calls(loop, false);
			continue;
		}
		want = __atomic_load_n(&w->events, __ATOMIC_ACQUIRE);
		if (!want)
			continue; /* parked after the batch was collected */
		got = ev->events & (want | EPOLLERR | EPOLLHUP);
		if (!got)
			continue;
		w->cb(w, got);
		n++;
	}
	loop->nready = 0;
	loop->cur = 0;
	return n;
}

/* ---- the loop ---- */

static void loop_noop_watch(struct ethdrv_watch *w, unsigned events)
{
}

int ethdrv_loop_new(struct ethdrv_loop **out)
{
	struct ethdrv_loop *loop;
	int ret;

	loop = calloc(1, sizeof(*loop));
	if (!loop)
		return -ENOMEM;
	loop->timer_fd = loop->wake_fd = -1;
	loop->budget_packets = 300;
	loop->budget_usecs = 2000;
	if (pthread_mutex_init(&loop->calls_lock, NULL)) {
		free(loop);
		return -ENOMEM;
	}
	if (pthread_cond_init(&loop->calls_cond, NULL)) {
		pthread_mutex_destroy(&loop->calls_lock);
		free(loop);
		return -ENOMEM;
	}
	loop->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (loop->epfd < 0)
		goto err_errno;
	loop->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (loop->timer_fd < 0)
		goto err_errno;
	loop->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (loop->wake_fd < 0)
		goto err_errno;
	ret = ethdrv_watch_start(loop, &loop->timer_watch, loop->timer_fd, ETHDRV_EV_READ,
				 loop_noop_watch);
	if (ret)
		goto err_close;
	ret = ethdrv_watch_start(loop, &loop->wake_watch, loop->wake_fd, ETHDRV_EV_READ,
				 loop_noop_watch);
	if (ret)
		goto err_close;
	*out = loop;
	return 0;

err_errno:
	ret = -errno;
err_close:
	if (loop->wake_fd >= 0)
		close(loop->wake_fd);
	if (loop->timer_fd >= 0)
		close(loop->timer_fd);
	if (loop->epfd >= 0)
		close(loop->epfd);
	pthread_cond_destroy(&loop->calls_cond);
	pthread_mutex_destroy(&loop->calls_lock);
	free(loop);
	return ret;
}

void ethdrv_loop_free(struct ethdrv_loop *loop)
{
	if (!loop)
		return;
	close(loop->wake_fd);
	close(loop->timer_fd);
	close(loop->epfd);
	if (loop->softirq)
		loop->softirq->ops->destroy(loop->softirq);
	pthread_cond_destroy(&loop->calls_cond);
	pthread_mutex_destroy(&loop->calls_lock);
	free(loop->heap);
	free(loop);
}

/* First run: record the loop thread and make its timed waits precise. */
static void loop_claim_thread(struct ethdrv_loop *loop)
{
	if (ethdrv_likely(__atomic_load_n(&loop->thread_set, __ATOMIC_RELAXED)))
		return;
	loop->thread = pthread_self();
	__atomic_store_n(&loop->thread_set, 1, __ATOMIC_RELEASE);
	pthread_mutex_lock(&loop->calls_lock);
	loop->calls_open = true;
	pthread_mutex_unlock(&loop->calls_lock);
	/* docs/host.md §1: the default 50 us slack delays every timer. */
	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
}

/* True if the deferred-work stage has work queued. */
static bool loop_softirq_pending(const struct ethdrv_loop *loop)
{
	struct ethdrv__loop_softirq *s = __atomic_load_n(&loop->softirq, __ATOMIC_ACQUIRE);

	return s && s->ops->pending(s);
}

/* Step 1: decide the epoll timeout; may run the before-sleep hook. */
static int loop_wait_timeout(struct ethdrv_loop *loop, unsigned flags)
{
	if ((flags & ETHDRV_RUN_NOWAIT) || loop_softirq_pending(loop))
		return 0;
	/* Publish "sleeping" before the last check; wakers test it after
	 * publishing their work (seq_cst on both sides: no lost wakeup). */
	__atomic_store_n(&loop->sleeping, 1, __ATOMIC_SEQ_CST);
	if (loop->before_sleep)
		loop->before_sleep(loop, loop->before_sleep_arg);
	if (loop_softirq_pending(loop) || loop_timer_due(loop)) {
		__atomic_store_n(&loop->sleeping, 0, __ATOMIC_RELAXED);
		return 0;
	}
	loop_timerfd_sync(loop);
	ethdrv_counter_inc(&loop->st.sleeps);
	return -1;
}

int ethdrv_loop_run_once(struct ethdrv_loop *loop, unsigned flags)
{
	struct ethdrv__loop_softirq *softirq;
	int timeout, nready, n;

	loop_claim_thread(loop);
	ethdrv_counter_inc(&loop->st.iterations);

	/* 1. Wait for fds, the earliest timer or a wake (unless work is pending). */
	timeout = loop_wait_timeout(loop, flags);
	nready = epoll_wait(loop->epfd, loop->events, LOOP_MAX_EVENTS, timeout);
	if (timeout)
		__atomic_store_n(&loop->sleeping, 0, __ATOMIC_RELAXED);
	if (nready < 0) {
		if (errno != EINTR)
			return -errno;
		nready = 0;
	}
	if (timeout && nready > 0)
		ethdrv_counter_inc(&loop->st.wakeups);

	/* 2. Dispatch ready watchers. */
	loop->nready = nready;
	n = loop_dispatch(loop);

	/* 3. Expired timers. */
	n += loop_run_timers(loop);
	/* An interrupt (a line's watcher, a timer) ran: the stage runs at its exit. */
	loop->irq_exit = n > 0;

	/* 4. The deferred-work stage: NAPI's poll list within netdev_budget /
	 * netdev_budget_usecs, then busy-poll pollers in busy mode. */
	softirq = __atomic_load_n(&loop->softirq, __ATOMIC_ACQUIRE);
	if (softirq)
		n += softirq->ops->run(loop, softirq);
	return n;
}

int ethdrv_loop_run(struct ethdrv_loop *loop)
{
	int ret;

	do {
		ret = ethdrv_loop_run_once(loop, 0);
		if (ret < 0)
			break;
	} while (!__atomic_exchange_n(&loop->stop, 0, __ATOMIC_ACQ_REL));
	/* No thread runs the loop any more: ownership passes to whoever tears
	 * down (after joining this thread) or runs it next. Keeping it here
	 * would leave a poller queued at the stop owned by a thread that is gone,
	 * and ethdrv_napi_disable() waiting for it forever. */
	__atomic_store_n(&loop->thread_set, 0, __ATOMIC_RELEASE);
	loop_run_calls(loop, true);
	return ret < 0 ? ret : 0;
}

void ethdrv_loop_stop(struct ethdrv_loop *loop)
{
	__atomic_store_n(&loop->stop, 1, __ATOMIC_SEQ_CST);
	loop_signal(loop);
}

void ethdrv_loop_wake(struct ethdrv_loop *loop)
{
	/* Only a loop that is (or may be about to be) blocked needs the syscall;
	 * the first waker clears the flag so concurrent wakers write once. */
	if (!__atomic_load_n(&loop->sleeping, __ATOMIC_SEQ_CST))
		return;
	if (!__atomic_exchange_n(&loop->sleeping, 0, __ATOMIC_SEQ_CST))
		return;
	loop_signal(loop);
	ethdrv_counter_inc(&loop->st.wakes_sent);
}

bool ethdrv_loop_in_thread(const struct ethdrv_loop *loop)
{
	return __atomic_load_n(&loop->thread_set, __ATOMIC_ACQUIRE) &&
	       pthread_equal(loop->thread, pthread_self());
}

void ethdrv_loop_set_before_sleep(struct ethdrv_loop *loop, ethdrv_loop_hook fn, void *arg)
{
	loop->before_sleep = fn;
	loop->before_sleep_arg = arg;
}

int ethdrv_loop_set_budget(struct ethdrv_loop *loop, unsigned packets, unsigned usecs)
{
	if (!packets || !usecs)
		return -EINVAL;
	__atomic_store_n(&loop->budget_packets, packets, __ATOMIC_RELAXED);
	__atomic_store_n(&loop->budget_usecs, usecs, __ATOMIC_RELAXED);
	return 0;
}

void ethdrv_loop_get_budget(const struct ethdrv_loop *loop, unsigned *packets, unsigned *usecs)
{
	*packets = __atomic_load_n(&loop->budget_packets, __ATOMIC_RELAXED);
	*usecs = __atomic_load_n(&loop->budget_usecs, __ATOMIC_RELAXED);
}

void ethdrv_loop_get_stats(const struct ethdrv_loop *loop, struct ethdrv_loop_stats *st)
{
	st->iterations = ethdrv_counter_get(&loop->st.iterations);
	st->sleeps = ethdrv_counter_get(&loop->st.sleeps);
	st->wakeups = ethdrv_counter_get(&loop->st.wakeups);
	st->wakes_sent = ethdrv_counter_get(&loop->st.wakes_sent);
	st->processed = ethdrv_counter_get(&loop->st.processed);
	st->time_squeeze = ethdrv_counter_get(&loop->st.time_squeeze);
	st->timers_fired = ethdrv_counter_get(&loop->st.timers_fired);
	st->softirq_runs = ethdrv_counter_get(&loop->st.softirq_runs);
	st->budget_exhausted = ethdrv_counter_get(&loop->st.budget_exhausted);
	st->time_exhausted = ethdrv_counter_get(&loop->st.time_exhausted);
	st->ksoftirqd_handoffs = ethdrv_counter_get(&loop->st.ksoftirqd_handoffs);
	st->ksoftirqd_runs = ethdrv_counter_get(&loop->st.ksoftirqd_runs);
	st->irq_exit_runs = ethdrv_counter_get(&loop->st.irq_exit_runs);
}

int ethdrv_loop_set_softirq(struct ethdrv_loop *loop, const struct ethdrv_softirq_config *cfg)
{
	loop->softirq_cfg = *cfg;
	loop->softirq_cfg.name[sizeof(loop->softirq_cfg.name) - 1] = '\0';
	return 0;
}

void ethdrv_loop_get_softirq(const struct ethdrv_loop *loop, struct ethdrv_softirq_config *cfg)
{
	*cfg = loop->softirq_cfg;
}

int ethdrv_loop_ksoftirqd_tid(const struct ethdrv_loop *loop)
{
	return __atomic_load_n(&loop->ksoftirqd_tid, __ATOMIC_ACQUIRE);
}

int ethdrv_thread_create_task(pthread_t *t, void *(*fn)(void *), void *arg)
{
	struct sched_param sp = { .sched_priority = 0 };
	pthread_attr_t attr;
	int ret;

	ret = pthread_attr_init(&attr);
	if (ret)
		return ret;
	ret = pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
	if (!ret)
		ret = pthread_attr_setschedpolicy(&attr, SCHED_OTHER);
	if (!ret)
		ret = pthread_attr_setschedparam(&attr, &sp);
	if (!ret)
		ret = pthread_create(t, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	return ret;
}

/* ---- what the rest of the core uses (loop_priv.h) ---- */

int ethdrv__loop_softirq_attach(struct ethdrv_loop *loop, struct ethdrv__loop_softirq *s)
{
	struct ethdrv__loop_softirq *none = NULL;

	if (!__atomic_compare_exchange_n(&loop->softirq, &none, s, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		return -EBUSY;
	return 0;
}

struct ethdrv__loop_softirq *ethdrv__loop_softirq_get(const struct ethdrv_loop *loop)
{
	return __atomic_load_n(&loop->softirq, __ATOMIC_ACQUIRE);
}

bool ethdrv__loop_is_owner(const struct ethdrv_loop *loop)
{
	return !__atomic_load_n(&loop->thread_set, __ATOMIC_ACQUIRE) || ethdrv_loop_in_thread(loop);
}

void ethdrv__loop_count_processed(struct ethdrv_loop *loop, uint64_t packets, bool squeezed)
{
	ethdrv_counter_add(&loop->st.processed, packets);
	if (squeezed)
		ethdrv_counter_inc(&loop->st.time_squeeze);
}

void ethdrv__loop_count_softirq(struct ethdrv_loop *loop, enum ethdrv__softirq_stop why,
				bool in_ksoftirqd)
{
	ethdrv_counter_inc(&loop->st.softirq_runs);
	if (in_ksoftirqd)
		ethdrv_counter_inc(&loop->st.ksoftirqd_runs);
	if (why == ETHDRV__SOFTIRQ_BUDGET)
		ethdrv_counter_inc(&loop->st.budget_exhausted);
	else if (why == ETHDRV__SOFTIRQ_TIME)
		ethdrv_counter_inc(&loop->st.time_exhausted);
}

void ethdrv__loop_count_irq_exit_run(struct ethdrv_loop *loop)
{
	ethdrv_counter_inc(&loop->st.irq_exit_runs);
}

bool ethdrv__loop_irq_exit(const struct ethdrv_loop *loop)
{
	return loop->irq_exit;
}

void ethdrv__loop_count_handoff(struct ethdrv_loop *loop)
{
	ethdrv_counter_inc(&loop->st.ksoftirqd_handoffs);
}

void ethdrv__loop_set_ksoftirqd_tid(struct ethdrv_loop *loop, int tid)
{
	__atomic_store_n(&loop->ksoftirqd_tid, tid, __ATOMIC_RELEASE);
}
