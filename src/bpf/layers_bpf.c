/* layers_load with eBPF: the skeleton bpftool made from layers.bpf.c at build time. */
#include "config.h"

#include "layers_load.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/types.h>

#include "layers_abi.h"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverlength-strings" /* the programs' ELF as one string */
#include "layers.skel.h"
#pragma GCC diagnostic pop
#include "msg.h"
#include "readfile.h"

#define LAYERS_BTF "/sys/kernel/btf/vmlinux"
#define LAYERS_NEEDS "--layers: needs CAP_BPF and CAP_PERFMON (or root)"

struct layers {
	struct layers_bpf *skel;
};

/* The tracepoints the programs attach to (layers.bpf.c's SEC names). */
static const char *const layers_tps[] = {
	"block_bio_queue", "block_split", "block_bio_backmerge", "block_bio_frontmerge",
	"block_rq_issue", "block_rq_complete", "sched_switch",
};

/* libbpf's last warning (it would print to stderr): part of the reason given. */
static char layers_said[256];

static int layers_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	size_t n;

	if (level == LIBBPF_DEBUG)
		return 0;
	vsnprintf(layers_said, sizeof(layers_said), fmt, ap);
	n = strlen(layers_said);
	while (n && (layers_said[n - 1] == '\n' || layers_said[n - 1] == ' '))
		layers_said[--n] = '\0';
	return 0;
}

bool layers_built(void)
{
	return true;
}

/* Kernel lockdown in its confidentiality mode forbids BPF reading kernel memory. */
static bool layers_locked_down(void)
{
	int err;
	char *text = readfile_text("/sys/kernel/security/lockdown", &err);
	bool locked = text && strstr(text, "[confidentiality]");

	free(text);
	return locked;
}

/* 0 when the kernel has BTF, every tracepoint and no lockdown; else -errno, msg filled. */
static int layers_check_kernel(char *msg, size_t msglen)
{
	struct btf *btf;
	char name[64];
	int err;

	if (access(LAYERS_BTF, R_OK))
		return err_set(msg, msglen, -ENOTSUP, "--layers: the kernel has no BTF (%s): %s",
			       LAYERS_BTF, strerror(errno));
	if (layers_locked_down())
		return err_set(msg, msglen, -EACCES, "--layers: kernel lockdown (confidentiality) "
			       "forbids eBPF tracing");
	btf = btf__load_vmlinux_btf();
	if (!btf)
		return err_set(msg, msglen, -ENOTSUP, "--layers: cannot read the kernel's BTF (%s): "
			       "%s", LAYERS_BTF, strerror(errno));
	err = 0;
	for (size_t i = 0; i < sizeof(layers_tps) / sizeof(layers_tps[0]) && !err; i++) {
		snprintf(name, sizeof(name), "btf_trace_%s", layers_tps[i]);
		if (btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF) < 0)
			err = err_set(msg, msglen, -ENOENT, "--layers: the kernel has no "
				      "tracepoint %s", layers_tps[i]);
	}
	btf__free(btf);
	return err;
}

/* The reason a load or an attach failed with -err. */
static int layers_refused(int err, const char *what, char *msg, size_t msglen)
{
	if (err == -EPERM || err == -EACCES)
		return err_set(msg, msglen, -EPERM, LAYERS_NEEDS ": %s: %s", what, strerror(-err));
	return err_set(msg, msglen, err < 0 ? err : -EINVAL, "--layers: %s: %s%s%s", what,
		       strerror(err < 0 ? -err : EINVAL), layers_said[0] ? " (libbpf: " : "",
		       layers_said[0] ? layers_said : "");
}

int layers_open(struct layers **out, char *msg, size_t msglen)
{
	struct layers *l;
	int err;

	*out = NULL;
	layers_said[0] = '\0';
	libbpf_set_print(layers_print);
	if ((err = layers_check_kernel(msg, msglen)))
		return err;
	l = calloc(1, sizeof(*l));
	if (!l)
		return err_set(msg, msglen, -ENOMEM, "--layers: out of memory");
	l->skel = layers_bpf__open();
	if (!l->skel) {
		err = layers_refused(-errno, "opening the eBPF programs", msg, msglen);
		free(l);
		return err;
	}
	if ((err = layers_bpf__load(l->skel)))
		err = layers_refused(err, "loading the eBPF programs", msg, msglen);
	else if ((err = layers_bpf__attach(l->skel)))
		err = layers_refused(err, "attaching to the block tracepoints", msg, msglen);
	if (err) {
		layers_close(l);
		return err;
	}
	*out = l;
	return 0;
}

struct layers_area *layers_shared(struct layers *l)
{
	return &l->skel->bss->area;
}

void layers_close(struct layers *l)
{
	if (!l)
		return;
	layers_bpf__destroy(l->skel);
	free(l);
}
