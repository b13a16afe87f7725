/*
 * layers: where one probe request spent its time inside the kernel, from the
 * record the eBPF programs fill (layers_abi.h). Pure: it reads and writes the
 * shared record only, no system call, so the probe's hot path stays cheap.
 *
 * The layers of a request that started at t0 (the probe's clock,
 * CLOCK_MONOTONIC, the clock of bpf_ktime_get_ns()):
 *   submit   t0 → its first bio entered the block layer (block_bio_queue in the
 *            probe's own context) or, when a worker queued it, t0 → the
 *            probing thread went to sleep (sched_switch): it had handed the bio
 *            to the cgroup throttle
 *   throttle that sleep → the worker's block_bio_queue (blk-throttle's wait);
 *            0 when the probe queued the bio itself
 *   queue    the first block_bio_queue → the first block_rq_issue
 *   device   the first block_rq_issue → the last block_rq_complete
 *   pieces   the block requests issued for it (a split makes more, a merge none)
 * A request that reached no block event (the page cache served it) has
 * no_device set and no layer times.
 */
#ifndef IOPROBE_LAYERS_H
#define IOPROBE_LAYERS_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/types.h>

#include "layers_abi.h"

/* One request's layers (ns), as a sample carries them. */
struct layer_times {
	uint64_t submit;
	uint64_t throttle;
	uint64_t queue;
	uint64_t device;
	uint32_t pieces;  /* block requests issued */
	bool measured;    /* the layers were measured for this request */
	bool no_device;   /* no block event: served without the device */
};

/*
 * Make a the record of the probing process tgid whose requests' sectors are
 * on block device dev (kernel encoding, layers_dev(); 0 when they are not
 * known). No request is in flight afterwards.
 */
void layers_setup(struct layers_area *a, uint32_t tgid, uint32_t dev);

/* The inode of the initial PID namespace (PROC_PID_INIT_INO): the kernel's own numbers. */
#define LAYERS_PIDNS_INIT_INO 0xEFFFFFFCull

/*
 * Count a's tgid in the PID namespace whose /proc/self/ns/pid stat gives user_dev and
 * ino (a probe in a container knows its own number, not the kernel's); the initial
 * namespace (ino LAYERS_PIDNS_INIT_INO) or ino 0 keeps the kernel's numbers.
 */
void layers_pidns(struct layers_area *a, uint64_t user_dev, uint64_t ino);

/* Kernel dev_t encoding (major << 20 | minor) of a user-space dev_t; 0 for 0. */
uint32_t layers_dev(uint64_t user_dev);

/*
 * Before request seq (non-zero) covering bytes [offset, offset + size) of the
 * device starts (size 0: its place is not known): clear the record, then
 * publish seq (release order), so that the programs note its events from
 * then on.
 */
void layers_begin(struct layers_area *a, uint64_t seq, uint64_t offset, uint64_t size);

/*
 * After the request that started at t0 returned: *out from the record (see
 * layers_decode), then no request is in flight.
 */
void layers_end(struct layers_area *a, uint64_t t0, struct layer_times *out);

/*
 * The layers of a finished request that started at t0 from its record (see
 * the file's comment). Events before t0 count from t0; each layer ends no
 * earlier than it starts. Pure.
 */
void layers_decode(const struct layers_area *a, uint64_t t0, struct layer_times *out);

#endif
