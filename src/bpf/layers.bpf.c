// SPDX-License-Identifier: MIT
/*
 * layers.bpf.c: where the probe's one request in flight spends its time in
 * the block layer, from BTF-typed tracepoints only (no kprobes, no fentry:
 * kernels that refuse those still run these). See layers_abi.h for the
 * shared record and src/bpf/layers.c for what the times mean.
 *
 * A bio is the request's when the probing process queues it (its tgid), or,
 * for a target that is a block device, when it lies on that device inside
 * the request's sectors — a bio held by the cgroup blk-throttle is queued
 * later by a kernel worker, not by the probe. Such bios go into `bios`; a
 * block request is the request's when one of its first LAYERS_RQ_BIOS bios
 * is there.
 */
#include "vmlinux.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "layers_abi.h"

#define LAYERS_BIOS 1024  /* bios remembered at most (least recently used go) */
#define LAYERS_RQ_BIOS 8  /* bios of a block request looked at */

char LICENSE[] SEC("license") = "Dual MIT/GPL";

struct layers_area area = {};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, LAYERS_BIOS);
	__type(key, __u64);   /* struct bio * */
	__type(value, __u64); /* the seq it belongs to */
} bios SEC(".maps");

/* Whether bio is the request's (seq != 0): see the file's comment. Sets *own. */
static __always_inline bool bio_ours(struct bio *bio, __u64 seq, bool *own)
{
	__u32 dev = area.dev;
	__u64 sector, start;

	*own = (bpf_get_current_pid_tgid() >> 32) == area.tgid;
	if (!dev)
		return *own;
	if (BPF_CORE_READ(bio, bi_bdev, bd_dev) != dev)
		return false;
	if (*own)
		return true;
	sector = BPF_CORE_READ(bio, bi_iter.bi_sector);
	start = BPF_CORE_READ(bio, bi_bdev, bd_start_sect);
	/* before or after the partition's remap */
	return (sector >= area.lo && sector < area.hi) ||
	       (sector >= start && sector - start >= area.lo && sector - start < area.hi);
}

/* Remember bio as seq's if it is the request's; returns whether it is. */
static __always_inline bool bio_note(struct bio *bio, __u64 seq, bool *own)
{
	__u64 key = (__u64)bio;

	if (!bio_ours(bio, seq, own))
		return false;
	bpf_map_update_elem(&bios, &key, &seq, BPF_ANY);
	return true;
}

SEC("tp_btf/block_bio_queue")
int BPF_PROG(layers_bio_queue, struct bio *bio)
{
	__u64 seq = area.seq, now;
	bool own;

	if (!seq || !bio_note(bio, seq, &own))
		return 0;
	now = bpf_ktime_get_ns();
	if (__sync_fetch_and_add(&area.queued, 1) == 0) {
		area.queue = now;
		area.worker = !own;
	}
	return 0;
}

SEC("tp_btf/block_split")
int BPF_PROG(layers_split, struct bio *bio, unsigned int new_sector)
{
	__u64 seq = area.seq;
	bool own;

	if (seq && bio_note(bio, seq, &own))
		__sync_fetch_and_add(&area.splits, 1);
	return 0;
}

/* A bio that joins an existing request: remembered, so that request is the request's. */
static __always_inline int merge_note(struct bio *bio)
{
	__u64 seq = area.seq;
	bool own;

	if (seq && bio_note(bio, seq, &own))
		__sync_fetch_and_add(&area.merges, 1);
	return 0;
}

SEC("tp_btf/block_bio_backmerge")
int BPF_PROG(layers_backmerge, struct bio *bio)
{
	return merge_note(bio);
}

SEC("tp_btf/block_bio_frontmerge")
int BPF_PROG(layers_frontmerge, struct bio *bio)
{
	return merge_note(bio);
}

/* Whether block request rq holds one of seq's bios (its first LAYERS_RQ_BIOS). */
static __always_inline bool rq_ours(struct request *rq, __u64 seq)
{
	struct bio *bio = BPF_CORE_READ(rq, bio);

#pragma unroll
	for (int i = 0; i < LAYERS_RQ_BIOS; i++) {
		__u64 key = (__u64)bio, *v;

		if (!bio)
			return false;
		v = bpf_map_lookup_elem(&bios, &key);
		if (v && *v == seq)
			return true;
		bio = BPF_CORE_READ(bio, bi_next);
	}
	return false;
}

SEC("tp_btf/block_rq_issue")
int BPF_PROG(layers_rq_issue, struct request *rq)
{
	__u64 seq = area.seq, now;

	if (!seq || !rq_ours(rq, seq))
		return 0;
	now = bpf_ktime_get_ns();
	if (__sync_fetch_and_add(&area.issues, 1) == 0)
		area.issue = now;
	return 0;
}

SEC("tp_btf/block_rq_complete")
int BPF_PROG(layers_rq_complete, struct request *rq, blk_status_t error, unsigned int nr_bytes)
{
	__u64 seq = area.seq, now;

	if (!seq || !rq_ours(rq, seq))
		return 0;
	now = bpf_ktime_get_ns();
	__sync_fetch_and_add(&area.completes, 1);
	if (now > area.complete)
		area.complete = now;
	return 0;
}

/* The probing thread going to sleep (not preempted): its submission is over. */
SEC("tp_btf/sched_switch")
int BPF_PROG(layers_switch, bool preempt, struct task_struct *prev, struct task_struct *next,
	     unsigned int prev_state)
{
	if (!area.seq || preempt || area.sleep || BPF_CORE_READ(prev, tgid) != area.tgid)
		return 0;
	area.sleep = bpf_ktime_get_ns();
	return 0;
}
