#include "config.h"

#include "child.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int child_signals(pid_t parent, void (*kick)(int), int death_sig)
{
	struct sigaction sa;
	sigset_t none;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL);
	sa.sa_handler = kick; /* no SA_RESTART */
	sigaction(SIGUSR1, &sa, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	prctl(PR_SET_PDEATHSIG, death_sig);
	return getppid() != parent ? -ESRCH : 0; /* the parent died before the line above */
}

void child_fds(const int *keep, size_t n)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	unsigned first = 3;

	for (int fd = 0; fd < 3 && null >= 0; fd++)
		if (null != fd)
			dup2(null, fd); /* dup2 clears O_CLOEXEC on the copy */
	for (size_t i = 0; i <= n; i++) {
		unsigned last = i < n ? (unsigned)keep[i] : ~0u;

		if (i < n && (unsigned)keep[i] < first)
			continue;
		if (last > first)
			syscall(SYS_close_range, first, last - 1, 0);
		first = last + 1;
	}
}
