#include "config.h"

#include "tui_term.h"
/* before <term.h>, whose macros (lines, columns) would rename the model's fields */
#include "tui_keys.h"

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <term.h>
#include <termios.h>
#include <unistd.h>

#include "common.h"
#include "prober.h"

/* Synchronous faults: always ours while the screen is (the process is broken anyway). */
static const int tui_crash_sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS };
/* Asked to stop: set the caller's flag (only where nobody handles them yet). */
static const int tui_stop_sigs[] = { SIGINT, SIGTERM, SIGHUP };
/*
 * Every other signal whose default action ends the process (signal(7)):
 * ours while at SIG_DFL, so the terminal is restored before the default
 * action kills us. The real-time signals are added at run time.
 */
static const int tui_fatal_sigs[] = {
	SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGIO,
	SIGPWR,
#ifdef SIGSTKFLT
	SIGSTKFLT,
#endif
};

enum tui_sig_role { TUI_SIG_NONE, TUI_SIG_CRASH, TUI_SIG_STOP, TUI_SIG_FATAL };

static struct {
	bool open;
	bool color;
	SCREEN *scr;
	struct termios tio;           /* the terminal as we found it */
	char restore[256];            /* escape sequences that leave the screen */
	size_t restore_len;
	int saved_err;                /* the real stderr while fd 2 is captured, or -1 */
	int capture_fd;               /* the memory file behind fd 2, or -1 */
	struct sigaction old[NSIG];   /* dispositions before ours */
	bool installed[NSIG];         /* we replaced old[sig] */
	volatile sig_atomic_t *stop;
} tui_term = { .saved_err = -1, .capture_fd = -1 };

/* The user's locale for characters, C for numbers: every format prints "178.4". */
static void tui_term_locale(void)
{
	setlocale(LC_ALL, "");
	setlocale(LC_NUMERIC, "C");
}

bool tui_term_want_ascii(const struct tui_term_opts *o)
{
	const char *term = getenv("TERM");

	tui_term_locale();
	if (o->force_ascii)
		return true;
	if (term && !strcmp(term, "linux"))
		return true;
	return strcmp(nl_langinfo(CODESET), "UTF-8") != 0;
}

bool tui_term_color(void)
{
	return tui_term.color;
}

/* Append a terminfo string capability to the restore sequence. */
static void tui_term_add_cap(const char *name)
{
	char *s = tigetstr(name);
	size_t n;

	if (!s || s == (char *)-1)
		return;
	n = strlen(s);
	if (tui_term.restore_len + n >= sizeof(tui_term.restore))
		return;
	memcpy(tui_term.restore + tui_term.restore_len, s, n);
	tui_term.restore_len += n;
}

/* Copy what stderr received while captured to fd (async-signal-safe). */
static void tui_term_copy_capture(int fd)
{
	char buf[512];
	off_t off = 0;
	ssize_t n;

	if (tui_term.capture_fd < 0 || fd < 0)
		return;
	while ((n = pread(tui_term.capture_fd, buf, sizeof(buf), off)) > 0) {
		if (write(fd, buf, (size_t)n) < 0)
			break;
		off += n;
	}
}

void tui_term_emergency(void)
{
	if (!tui_term.open)
		return;
	tui_term.open = false; /* once: a second signal in the handler does not repeat it */
	if (write(STDOUT_FILENO, tui_term.restore, tui_term.restore_len) < 0) {
		/* nothing more can be done */
	}
	tcsetattr(STDIN_FILENO, TCSANOW, &tui_term.tio);
	if (tui_term.saved_err >= 0) {
		dup2(tui_term.saved_err, STDERR_FILENO);
		tui_term_copy_capture(STDERR_FILENO);
	}
}

/* A signal that ends the process: put the terminal back, then die of it. */
static void tui_term_on_fatal(int sig)
{
	tui_term_emergency();
	raise(sig); /* SA_RESETHAND: the default action, after this handler returns */
}

static void tui_term_on_stop(int sig)
{
	(void)sig;
	if (tui_term.stop) {
		*tui_term.stop = 1;
		prober_notify_stop(); /* every probe's reader wakes */
	}
}

static bool tui_term_in(const int *list, size_t n, int sig)
{
	for (size_t i = 0; i < n; i++)
		if (list[i] == sig)
			return true;
	return false;
}

static enum tui_sig_role tui_term_role(int sig)
{
	if (tui_term_in(tui_crash_sigs, ARRAY_SIZE(tui_crash_sigs), sig))
		return TUI_SIG_CRASH;
	if (tui_term_in(tui_stop_sigs, ARRAY_SIZE(tui_stop_sigs), sig))
		return TUI_SIG_STOP;
	if (tui_term_in(tui_fatal_sigs, ARRAY_SIZE(tui_fatal_sigs), sig) ||
	    (sig >= SIGRTMIN && sig <= SIGRTMAX))
		return TUI_SIG_FATAL;
	return TUI_SIG_NONE;
}

void tui_term_sigset(sigset_t *set)
{
	for (int sig = 1; sig < NSIG; sig++) {
		enum tui_sig_role r = tui_term_role(sig);

		if (r == TUI_SIG_STOP || r == TUI_SIG_FATAL)
			sigaddset(set, sig);
	}
}

/*
 * Install our handlers. Crash signals are always ours; the others only
 * where they are still at SIG_DFL (a handler of the CLI stays, an ignored
 * signal stays ignored), and before curses starts: ncurses only takes over
 * signals still at SIG_DFL.
 */
static void tui_term_signals(void)
{
	for (int sig = 1; sig < NSIG; sig++) {
		enum tui_sig_role r = tui_term_role(sig);
		struct sigaction sa, cur;

		tui_term.installed[sig] = false;
		if (r == TUI_SIG_NONE || sigaction(sig, NULL, &cur))
			continue;
		if (r != TUI_SIG_CRASH && cur.sa_handler != SIG_DFL)
			continue;
		memset(&sa, 0, sizeof(sa));
		sigemptyset(&sa.sa_mask);
		tui_term_sigset(&sa.sa_mask); /* one handler at a time */
		sa.sa_handler = r == TUI_SIG_STOP ? tui_term_on_stop : tui_term_on_fatal;
		sa.sa_flags = r == TUI_SIG_STOP ? 0 : SA_RESETHAND; /* no SA_RESTART: EINTR */
		if (!sigaction(sig, &sa, &tui_term.old[sig]))
			tui_term.installed[sig] = true;
	}
}

static void tui_term_unsignals(void)
{
	for (int sig = 1; sig < NSIG; sig++) {
		if (tui_term.installed[sig])
			sigaction(sig, &tui_term.old[sig], NULL);
		tui_term.installed[sig] = false;
	}
}

/* Hold the asynchronous signals while the terminal changes hands (old gets the mask). */
static void tui_term_hold(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	tui_term_sigset(&set);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

/* Send fd 2 into a memory file until tui_term_uncapture(). */
static void tui_term_capture(void)
{
	int fd = memfd_create("ioprobe-stderr", MFD_CLOEXEC);

	if (fd < 0)
		return;
	tui_term.saved_err = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
	if (tui_term.saved_err < 0 || dup2(fd, STDERR_FILENO) < 0) {
		if (tui_term.saved_err >= 0)
			close(tui_term.saved_err);
		tui_term.saved_err = -1;
		close(fd);
		return;
	}
	tui_term.capture_fd = fd;
}

static void tui_term_uncapture(struct sbuf *captured)
{
	char buf[4096];
	off_t off = 0;
	ssize_t n;

	if (tui_term.saved_err < 0)
		return;
	dup2(tui_term.saved_err, STDERR_FILENO);
	close(tui_term.saved_err);
	tui_term.saved_err = -1;
	while (captured && (n = pread(tui_term.capture_fd, buf, sizeof(buf), off)) > 0) {
		sbuf_append(captured, buf, (size_t)n);
		off += n;
	}
	close(tui_term.capture_fd);
	tui_term.capture_fd = -1;
}

/* A run that ended with the screen still up (a failed preparation): give stderr its text. */
static void tui_term_atexit(void)
{
	struct sbuf sb = SBUF_INIT;

	tui_term_close(&sb);
	if (sb.len && write(STDERR_FILENO, sbuf_str(&sb), sb.len) < 0)
		sb.len = 0;
	sbuf_free(&sb);
}

/* Start curses on the terminal; the restore sequence is known before open is set. */
static int tui_term_start(void)
{
	tui_term.scr = newterm(NULL, stdout, stdin);
	if (!tui_term.scr)
		return -ENOTTY;
	tui_term.restore_len = 0;
	tui_term_add_cap("sgr0");
	tui_term_add_cap("cnorm");
	tui_term_add_cap("rmkx");
	tui_term_add_cap("rmcup");
	tui_term.open = true;
	tui_term_capture();
	raw();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	leaveok(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	return 0;
}

int tui_term_open(const struct tui_term_opts *o, volatile sig_atomic_t *stop, char *msg,
		  size_t msglen)
{
	static bool atexit_done;
	const char *nc = getenv("NO_COLOR");
	sigset_t old;
	int ret;

	if (tui_term.open)
		return 0;
	unsetenv("LINES");
	unsetenv("COLUMNS");
	tui_term_locale();
	if (tcgetattr(STDIN_FILENO, &tui_term.tio)) {
		snprintf(msg, msglen, "--tui needs a terminal on standard input: %s",
			 strerror(errno));
		return -ENOTTY;
	}
	tui_term.stop = stop;
	tui_term_hold(&old); /* a signal now waits until the restore sequence is known */
	tui_term_signals();
	ret = tui_term_start();
	if (ret)
		tui_term_unsignals();
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret) {
		const char *term = getenv("TERM");

		snprintf(msg, msglen, "cannot start the full-screen view on terminal type \"%s\"",
			 term ? term : "");
		return ret;
	}
	if (!atexit_done) {
		atexit(tui_term_atexit);
		atexit_done = true;
	}
	tui_term.color = false;
	if (!o->no_color && !(nc && *nc) && has_colors()) {
		start_color();
		use_default_colors();
		tui_term.color = true;
	}
	return 0;
}

void tui_term_close(struct sbuf *captured)
{
	sigset_t old;

	if (!tui_term.open)
		return;
	tui_term_hold(&old); /* a signal now waits until the terminal is back */
	endwin();
	tui_term.open = false;
	delscreen(tui_term.scr);
	tui_term.scr = NULL;
	tui_term_unsignals();
	tui_term_uncapture(captured);
	tui_term.stop = NULL;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

int tui_term_check(char *msg, size_t msglen)
{
	const char *term = getenv("TERM");
	TERMINAL *saved = cur_term, *t;
	int err = 0;

	if (!term || !*term || !strcmp(term, "dumb")) {
		snprintf(msg, msglen, "--tui needs a terminal with cursor addressing (TERM=%s)",
			 term ? term : "");
		return -ENOTTY;
	}
	if (setupterm(NULL, STDOUT_FILENO, &err) != OK) {
		snprintf(msg, msglen, err == 0 ?
			 "--tui: unknown terminal type \"%s\" (no terminfo entry; set TERM)" :
			 "--tui: cannot use terminal type \"%s\" (set TERM)", term);
		return -ENOTTY;
	}
	t = cur_term;
	set_curterm(saved);
	del_curterm(t);
	return 0;
}
