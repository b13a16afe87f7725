/*
 * layers_load: the eBPF programs of layers.bpf.c loaded and attached for one
 * probe, their shared record (layers_abi.h) mapped into this process — and,
 * since the mapping is shared, into the probe's process forked later. Nothing
 * is pinned: closing (or the process's end) detaches everything.
 */
#ifndef IOPROBE_LAYERS_LOAD_H
#define IOPROBE_LAYERS_LOAD_H

#include <stdbool.h>
#include <stddef.h>

struct layers;
struct layers_area;

/* Whether this build has the eBPF programs (libbpf, bpftool and clang were found). */
bool layers_built(void);

/*
 * Load and attach the programs; *out the handle. Returns 0, or -errno with
 * msg one line "--layers: <what is missing>: <why>" (-ENOTSUP: not in this
 * build or no BTF; -EPERM: no CAP_BPF and CAP_PERFMON; -ENOENT: a tracepoint
 * missing; -EACCES: kernel lockdown). Writes nothing to stdout or stderr.
 */
int layers_open(struct layers **out, char *msg, size_t msglen);

/* The record shared with the programs (MAP_SHARED: it survives fork). */
struct layers_area *layers_shared(struct layers *l);

/* Detach, unload and unmap (l may be NULL). */
void layers_close(struct layers *l);

#endif
