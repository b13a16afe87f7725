// SPDX-License-Identifier: MIT
/*
 * layers.bpf.c: where the probe's one request in flight spends its time in
 * the block layer, from BTF-typed tracepoints only (no kprobes, no fentry:
 * kernels that refuse those still run these). See layers_abi.h for the
 * shared record and src/bpf/layers.h for what the times mean.
 *
 * A bio is the request's when the probing process queues it (its tgid, in its own PID
 * namespace: a probe in a container knows its own number, not the kernel's), or,
 * when the request's sectors on a block device are known (a block device
 * target, or a file's extent there: layers_map.c), when it lies on that
 * device inside them — a bio held by the cgroup blk-throttle is queued later
 * by a kernel worker, not by the probe. Such bios are noted in area.bios. A
 * block request is the request's when it covers one of the request's
 * sectors, or its first or last bio was noted. The record is the program's global (the
 * skeleton's .bss, mapped into the probe): no map lookup on the hot path,
 * and typed pointers are read directly (no helper call).
 */
#include "vmlinux.h"

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "layers_abi.h"

char LICENSE[] SEC("license") = "Dual MIT/GPL";

struct layers_area area = {};

struct known_ctx {
	__u64 bio;
	bool found;
};

static long known_step(__u32 i, struct known_ctx *c)
{
	if (i < LAYERS_BIOS && area.bios[i] == c->bio) {
		c->found = true;
		return 1;
	}
	return 0;
}

/* Whether bio was noted for the request in flight (bpf_loop: verified once, not per bio). */
static __always_inline bool bio_known(__u64 bio)
{
	struct known_ctx c = { bio, false };
	__u32 n = area.nbios;

	bpf_loop(n < LAYERS_BIOS ? n : LAYERS_BIOS, known_step, &c, 0);
	return c.found;
}

/*
 * The current task's process id as the probe knows its own: the kernel's (the initial PID
 * namespace's), or, for a probe in a PID namespace of its own (a container), the one in that
 * namespace (0 for a task outside it, a kernel worker included).
 */
static __always_inline __u32 current_tgid(void)
{
	struct bpf_pidns_info ns;

	if (!area.ns_ino)
		return bpf_get_current_pid_tgid() >> 32;
	if (bpf_get_ns_current_pid_tgid(area.ns_dev, area.ns_ino, &ns, sizeof(ns)))
		return 0;
	return ns.tgid;
}

/* Whether bio is the request's: see the file's comment. Sets *own. */
static __always_inline bool bio_ours(struct bio *bio, bool *own)
{
	__u32 dev = area.dev;
	__u64 sector, start;

	*own = current_tgid() == area.tgid;
	if (!dev)
		return *own;
	if (bio->bi_bdev->bd_dev != dev)
		return false;
	if (*own)
		return true;
	sector = bio->bi_iter.bi_sector;
	start = bio->bi_bdev->bd_start_sect;
	/* before or after the partition's remap */
	return (sector >= area.lo && sector < area.hi) ||
	       (sector >= start && sector - start >= area.lo && sector - start < area.hi);
}

/* Note bio for the request in flight if it is the request's; returns whether it is. */
static __always_inline bool bio_note(struct bio *bio, bool *own)
{
	__u32 i;

	if (!bio_ours(bio, own))
		return false;
	if (bio_known((__u64)bio))
		return true; /* a split's remainder, queued again */
	i = __sync_fetch_and_add(&area.nbios, 1);
	if (i < LAYERS_BIOS)
		area.bios[i] = (__u64)bio;
	return true;
}

SEC("tp_btf/block_bio_queue")
int BPF_PROG(layers_bio_queue, struct bio *bio)
{
	__u64 now;
	bool own;

	if (!area.seq || !bio_note(bio, &own))
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
	bool own;

	if (area.seq && bio_note(bio, &own))
		__sync_fetch_and_add(&area.splits, 1);
	return 0;
}

/* A bio that joins an existing request: noted, so that request is the request's. */
static __always_inline int merge_note(struct bio *bio)
{
	bool own;

	if (area.seq && bio_note(bio, &own))
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

/*
 * Whether block request rq is the request's: it covers one of the request's sectors on the
 * target's device, or its first or last bio (a merge adds at either end) was noted.
 */
static __always_inline bool rq_ours(struct request *rq)
{
	struct bio *bio = rq->bio;
	__u64 lo, hi, start;

	if (!bio)
		return false; /* a flush without data */
	if (area.dev && bio->bi_bdev->bd_dev == area.dev) {
		start = bio->bi_bdev->bd_start_sect;
		lo = rq->__sector;
		hi = lo + (rq->__data_len >> 9);
		if (lo >= start) { /* partition-relative, as the probe gives its sectors */
			lo -= start;
			hi -= start;
		}
		if (lo < area.hi && hi > area.lo)
			return true;
	}
	return bio_known((__u64)bio) || bio_known((__u64)rq->biotail);
}

SEC("tp_btf/block_rq_issue")
int BPF_PROG(layers_rq_issue, struct request *rq)
{
	__u64 now;

	if (!area.seq || !rq_ours(rq))
		return 0;
	now = bpf_ktime_get_ns();
	if (__sync_fetch_and_add(&area.issues, 1) == 0)
		area.issue = now;
	return 0;
}

SEC("tp_btf/block_rq_complete")
int BPF_PROG(layers_rq_complete, struct request *rq, blk_status_t error, unsigned int nr_bytes)
{
	__u64 now;

	if (!area.seq || !rq_ours(rq))
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
	/* prev is the current task still (the tracepoint comes before the switch) */
	if (!area.seq || preempt || area.sleep || current_tgid() != area.tgid)
		return 0;
	area.sleep = bpf_ktime_get_ns();
	return 0;
}
