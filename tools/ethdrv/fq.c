// SPDX-License-Identifier: MIT
/*
 * Fair queueing with CoDel per queue (fq.h, docs/fq.md): the scheduler of
 * RFC 8290 section 4 and the control law of RFC 8289 section 5, written from the RFCs.
 */
#include "fq.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FQ_LIST_NONE 0
#define FQ_LIST_NEW 1
#define FQ_LIST_OLD 2

#define ETH_HLEN 14
#define ETH_P_IPV4 0x0800
#define ETH_P_IPV6 0x86DD
#define IPPROTO_TCP_ 6
#define IPPROTO_UDP_ 17
#define FQ_MTU_BYTES 1514u /* a queue holding at most this much never counts as standing */

void fq_cfg_default(struct fq_cfg *cfg)
{
	*cfg = (struct fq_cfg){
		.target_ns = 5000000,
		.interval_ns = 100000000,
		.quantum = 1514,
		.limit = FQ_LIMIT_MAX,
		.flows = 1024,
		.ecn = true,
	};
}

int fq_init(struct fq *q, const struct fq_cfg *cfg, uint32_t seed)
{
	memset(q, 0, sizeof(*q));
	if (!cfg->flows || cfg->flows > FQ_FLOWS_MAX || !cfg->quantum || !cfg->limit ||
	    !cfg->target_ns || cfg->interval_ns < cfg->target_ns)
		return -EINVAL;
	q->flow = calloc(cfg->flows, sizeof(*q->flow));
	if (!q->flow)
		return -ENOMEM;
	q->cfg = *cfg;
	q->seed = seed;
	return 0;
}

/* ---- the flow hash ---- */

static uint32_t fq_mix(uint32_t h, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 16777619u; /* FNV-1a */
	return h;
}

static uint32_t fq_final(uint32_t h)
{
	/* spread the low bits, which pick the bucket */
	h ^= h >> 16;
	h *= 0x7feb352du;
	h ^= h >> 15;
	h *= 0x846ca68bu;
	h ^= h >> 16;
	return h;
}

uint32_t fq_hash(const uint8_t *f, size_t len, uint32_t seed)
{
	uint32_t h = 2166136261u ^ seed;
	unsigned type, proto, l4;

	if (len < ETH_HLEN)
		return fq_final(fq_mix(h, f, len));
	type = (unsigned)f[12] << 8 | f[13];
	if (type == ETH_P_IPV4 && len >= ETH_HLEN + 20) {
		const uint8_t *ip = f + ETH_HLEN;
		unsigned ihl = (ip[0] & 0x0f) * 4u;
		bool frag = ((ip[6] & 0x3f) | ip[7]) != 0; /* MF or an offset: no ports */

		proto = ip[9];
		h = fq_mix(h, ip + 9, 1);
		h = fq_mix(h, ip + 12, 8);
		l4 = ETH_HLEN + ihl;
		if (!frag && ihl >= 20 && (proto == IPPROTO_TCP_ || proto == IPPROTO_UDP_) &&
		    len >= l4 + 4)
			h = fq_mix(h, f + l4, 4);
		return fq_final(h);
	}
	if (type == ETH_P_IPV6 && len >= ETH_HLEN + 40) {
		const uint8_t *ip = f + ETH_HLEN;

		proto = ip[6];
		h = fq_mix(h, ip + 6, 1);
		h = fq_mix(h, ip + 8, 32);
		l4 = ETH_HLEN + 40; /* extension headers: the ports are not looked for */
		if ((proto == IPPROTO_TCP_ || proto == IPPROTO_UDP_) && len >= l4 + 4)
			h = fq_mix(h, f + l4, 4);
		return fq_final(h);
	}
	return fq_final(fq_mix(h, f, ETH_HLEN));
}

/* ---- ECN ---- */

bool fq_ecn_mark(uint8_t *f, size_t len)
{
	unsigned type;

	if (len < ETH_HLEN + 20)
		return false;
	type = (unsigned)f[12] << 8 | f[13];
	if (type == ETH_P_IPV4) {
		uint8_t *ip = f + ETH_HLEN;
		unsigned ecn = ip[1] & 3, sum;

		if (!ecn)
			return false; /* Not-ECT */
		if (ecn == 3)
			return true;
		/* RFC 1624 incremental update of the header checksum: the word
		 * holding the TOS byte goes from m to m' = m | 3 */
		sum = (unsigned)(~((unsigned)ip[10] << 8 | ip[11]) & 0xffff);
		sum += (unsigned)(~((unsigned)ip[0] << 8 | ip[1]) & 0xffff);
		ip[1] |= 3;
		sum += (unsigned)ip[0] << 8 | ip[1];
		sum = (sum & 0xffff) + (sum >> 16);
		sum = (sum & 0xffff) + (sum >> 16);
		ip[10] = (uint8_t)(~sum >> 8);
		ip[11] = (uint8_t)~sum;
		return true;
	}
	if (type == ETH_P_IPV6 && len >= ETH_HLEN + 40) {
		uint8_t *ip = f + ETH_HLEN;
		unsigned ecn = (ip[1] >> 4) & 3;

		if (!ecn)
			return false;
		ip[1] |= 0x30; /* no header checksum in IPv6 */
		return true;
	}
	return false;
}

/* ---- the lists ---- */

static void fq_list_add_tail(struct fq_list *l, struct fq_flow *f)
{
	f->next = NULL;
	if (l->tail)
		l->tail->next = f;
	else
		l->head = f;
	l->tail = f;
}

static struct fq_flow *fq_list_pop(struct fq_list *l)
{
	struct fq_flow *f = l->head;

	if (f) {
		l->head = f->next;
		if (!l->head)
			l->tail = NULL;
		f->next = NULL;
	}
	return f;
}

static void fq_account_out(struct fq *q, struct ethdrv_pkt *pkt)
{
	q->backlog--;
	ethdrv_counter_set(&q->st.fq_backlog, q->backlog);
	ethdrv_counter_set(&q->st.fq_backlog_bytes,
			   ethdrv_counter_get(&q->st.fq_backlog_bytes) - pkt->len);
}

static void fq_drop(struct fq *q, struct ethdrv_pkt *pkt, ethdrv_counter_t *why)
{
	fq_account_out(q, pkt);
	ethdrv_counter_inc(why);
	ethdrv_pkt_free(pkt);
}

/* The limit: the head of the longest queue goes (RFC 8290 section 4.1). */
static void fq_drop_longest(struct fq *q)
{
	struct fq_flow *fat = NULL;

	for (uint32_t i = 0; i < q->cfg.flows; i++)
		if (!fat || q->flow[i].q.bytes > fat->q.bytes)
			fat = &q->flow[i];
	if (fat && fat->q.count)
		fq_drop(q, ethdrv_pkt_queue_pop(&fat->q), &q->st.fq_overlimit);
}

void fq_enqueue(struct fq *q, struct ethdrv_pkt *pkt, uint64_t now_ns)
{
	struct fq_flow *f = &q->flow[fq_hash(pkt->data, pkt->len, q->seed) % q->cfg.flows];

	pkt->ts_ns = now_ns;
	ethdrv_pkt_queue_push(&f->q, pkt);
	q->backlog++;
	ethdrv_counter_inc(&q->st.fq_enqueued);
	ethdrv_counter_set(&q->st.fq_backlog_bytes,
			   ethdrv_counter_get(&q->st.fq_backlog_bytes) + pkt->len);
	if (f->list == FQ_LIST_NONE) {
		/* A new (or sparse: it had gone idle) flow: served before the old. */
		f->list = FQ_LIST_NEW;
		f->deficit = q->cfg.quantum;
		fq_list_add_tail(&q->new_flows, f);
		ethdrv_counter_inc(&q->st.fq_new_flows);
		ethdrv_counter_inc(&q->st.fq_flows);
	}
	while (q->backlog > q->cfg.limit) /* also after the limit was lowered */
		fq_drop_longest(q);
	ethdrv_counter_set(&q->st.fq_backlog, q->backlog);
	if (q->backlog > ethdrv_counter_get(&q->st.fq_backlog_max))
		ethdrv_counter_set(&q->st.fq_backlog_max, q->backlog);
}

/* ---- CoDel (RFC 8289 section 5) ---- */

static uint64_t fq_control_law(const struct fq *q, uint64_t t, uint32_t count)
{
	return t + (uint64_t)((double)q->cfg.interval_ns / sqrt((double)count));
}

/* Pop the head of @f; *@ok says whether its delay has stood above target
 * for an interval (RFC 8289's dodequeue). */
static struct ethdrv_pkt *fq_codel_pop(struct fq *q, struct fq_flow *f, uint64_t now, bool *ok)
{
	struct ethdrv_pkt *pkt = ethdrv_pkt_queue_pop(&f->q);
	uint64_t sojourn;

	*ok = false;
	if (!pkt) {
		f->cv.first_above_ns = 0;
		return NULL;
	}
	sojourn = now - pkt->ts_ns;
	if (sojourn < q->cfg.target_ns || f->q.bytes <= FQ_MTU_BYTES) {
		f->cv.first_above_ns = 0; /* below target, or too little queued to matter */
	} else if (!f->cv.first_above_ns) {
		f->cv.first_above_ns = now + q->cfg.interval_ns;
	} else if (now >= f->cv.first_above_ns) {
		*ok = true;
	}
	return pkt;
}

/* Drop or mark @pkt; true if it was dropped (freed), false if marked (it goes on). */
static bool fq_signal(struct fq *q, struct ethdrv_pkt *pkt)
{
	if (q->cfg.ecn && fq_ecn_mark(pkt->data, pkt->len)) {
		ethdrv_counter_inc(&q->st.fq_marks);
		return false;
	}
	fq_drop(q, pkt, &q->st.fq_drops);
	return true;
}

static struct ethdrv_pkt *fq_codel_dequeue(struct fq *q, struct fq_flow *f, uint64_t now)
{
	struct fq_codel *cv = &f->cv;
	struct ethdrv_pkt *pkt;
	uint32_t delta;
	bool ok;

	pkt = fq_codel_pop(q, f, now, &ok);
	if (!pkt) {
		cv->dropping = false;
		return NULL;
	}
	if (cv->dropping) {
		if (!ok) {
			cv->dropping = false; /* the delay fell below target */
		} else {
			while (pkt && cv->dropping && now >= cv->drop_next_ns) {
				cv->count++;
				if (!fq_signal(q, pkt)) {
					/* marked: it goes; the next signal per the law */
					cv->drop_next_ns =
						fq_control_law(q, cv->drop_next_ns, cv->count);
					return pkt;
				}
				pkt = fq_codel_pop(q, f, now, &ok);
				if (!ok)
					cv->dropping = false;
				else
					cv->drop_next_ns =
						fq_control_law(q, cv->drop_next_ns, cv->count);
			}
		}
	} else if (ok) {
		/* Enter dropping: signal this one, and start near the old rate
		 * if the last dropping state ended a short while ago. */
		cv->dropping = true;
		delta = cv->count - cv->lastcount;
		cv->count =
			delta > 1 && now - cv->drop_next_ns < 16 * q->cfg.interval_ns ? delta : 1;
		cv->lastcount = cv->count;
		cv->drop_next_ns = fq_control_law(q, now, cv->count);
		if (fq_signal(q, pkt))
			pkt = fq_codel_pop(q, f, now, &ok);
	}
	return pkt;
}

/* ---- the scheduler (RFC 8290 section 4.2) ---- */

struct ethdrv_pkt *fq_dequeue(struct fq *q, uint64_t now_ns)
{
	struct ethdrv_pkt *pkt;
	struct fq_list *l;
	struct fq_flow *f;

	for (;;) {
		l = q->new_flows.head ? &q->new_flows : &q->old_flows;
		f = l->head;
		if (!f)
			return NULL;
		if (f->deficit <= 0) {
			f->deficit += q->cfg.quantum;
			fq_list_pop(l);
			f->list = FQ_LIST_OLD;
			fq_list_add_tail(&q->old_flows, f);
			continue;
		}
		pkt = fq_codel_dequeue(q, f, now_ns);
		if (!pkt) {
			fq_list_pop(l);
			/* An emptied new flow goes to the old list once, so it can not
			 * come back as new at once and jump ahead; an emptied old flow
			 * leaves (it may return as a new, sparse flow). */
			if (l == &q->new_flows && q->old_flows.head) {
				f->list = FQ_LIST_OLD;
				fq_list_add_tail(&q->old_flows, f);
			} else {
				f->list = FQ_LIST_NONE;
				ethdrv_counter_set(&q->st.fq_flows,
						   ethdrv_counter_get(&q->st.fq_flows) - 1);
			}
			continue;
		}
		f->deficit -= pkt->len;
		fq_account_out(q, pkt);
		ethdrv_counter_inc(&q->st.fq_dequeued);
		ethdrv_hist_record(&q->sojourn_ns, now_ns - pkt->ts_ns);
		return pkt;
	}
}

void fq_free(struct fq *q)
{
	struct ethdrv_pkt *pkt;

	for (uint32_t i = 0; q->flow && i < q->cfg.flows; i++)
		while ((pkt = ethdrv_pkt_queue_pop(&q->flow[i].q)))
			fq_drop(q, pkt, &q->st.fq_overlimit);
	free(q->flow);
	q->flow = NULL;
	q->new_flows = q->old_flows = (struct fq_list){ NULL, NULL };
	ethdrv_counter_set(&q->st.fq_flows, 0);
}
