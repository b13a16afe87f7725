/* layers_load without eBPF: this build has no libbpf, bpftool, clang or kernel BTF. */
#include "config.h"

#include "layers_load.h"

#include <errno.h>
#include <stdio.h>

#include "msg.h"

bool layers_built(void)
{
	return false;
}

int layers_open(struct layers **out, char *msg, size_t msglen)
{
	*out = NULL;
	return err_set(msg, msglen, -ENOTSUP,
		       "--layers: not available in this build (it needs libbpf, bpftool, clang "
		       "and the kernel's BTF when built)");
}

struct layers_area *layers_shared(struct layers *l)
{
	(void)l;
	return NULL;
}

void layers_close(struct layers *l)
{
	(void)l;
}
