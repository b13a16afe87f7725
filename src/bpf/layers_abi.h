/*
 * layers_abi: the memory the probe and the eBPF programs (layers.bpf.c) share
 * — the program's global `area`, mapped into the probe (BPF_F_MMAPABLE, the
 * skeleton's .bss). Included by both sides: the BPF side after vmlinux.h, the
 * user side after <linux/types.h>.
 *
 * One request is in flight at a time. Before it starts, the probe zeroes the
 * record, fills the request's device and sector range and last stores its
 * sequence number (seq, non-zero); the programs then note, for that seq
 * only, what happened to the request's bios and block requests. When the
 * request has returned, every block event of it has fired (completion comes
 * before the wake-up), and the probe reads the record and sets seq to 0.
 */
#ifndef IOPROBE_LAYERS_ABI_H
#define IOPROBE_LAYERS_ABI_H

/* The request's bios remembered at most (a split's pieces and remainder each count once). */
#define LAYERS_BIOS 64

/* The whole record: what the probe writes, then what the programs note. */
struct layers_area {
	/* the probe's */
	__u64 seq;        /* the request in flight; 0 = none (the programs note nothing) */
	__u32 tgid;       /* the probing process (its io_uring workers share it) */
	__u32 dev;        /* the block device the request's sectors are on, kernel encoding
			   * (major << 20 | minor); 0 when unknown: then only the probe's own
			   * bios are its */
	__u64 lo, hi;     /* the request's sectors [lo, hi) on dev (partition-relative; empty:
			   * unknown) */
	__u64 ns_dev;     /* the PID namespace tgid is counted in (its nsfs dev, kernel encoding,
			   * and inode); ns_ino 0: the initial one, where the kernel's own
			   * numbers are tgid's (a container's probe is known by its own) */
	__u64 ns_ino;
	/* the programs' (for seq) */
	__u64 sleep;      /* first time the probing thread went to sleep (sched_switch) */
	__u64 queue;      /* first block_bio_queue of one of its bios */
	__u64 issue;      /* first block_rq_issue of a block request holding one */
	__u64 complete;   /* last block_rq_complete of such a request */
	__u32 worker;     /* 1: the first block_bio_queue came from another task (the
			   * blk-throttle's dispatch worker) */
	__u32 queued;     /* block_bio_queue events (a split's remainder is queued again) */
	__u32 issues;     /* block requests issued: the pieces */
	__u32 completes;  /* block_rq_complete events */
	__u32 splits;     /* block_split events */
	__u32 merges;     /* block_bio_backmerge/frontmerge events: a bio joined a request */
	__u32 nbios;      /* bios noted into bios[] (more than LAYERS_BIOS: the rest are lost) */
	__u32 pad;
	__u64 bios[LAYERS_BIOS]; /* the request's bios (struct bio *), the first nbios */
};

#endif
