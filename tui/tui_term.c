#include "config.h"

#include "tui_term.h"

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <term.h>
#include <termios.h>
#include <unistd.h>

static const int tui_crash_sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
static const int tui_stop_sigs[] = { SIGINT, SIGTERM, SIGHUP };
#define TUI_NCRASH (sizeof(tui_crash_sigs) / sizeof(tui_crash_sigs[0]))
#define TUI_NSTOP (sizeof(tui_stop_sigs) / sizeof(tui_stop_sigs[0]))

static struct {
	bool open;
	bool color;
	SCREEN *scr;
	struct termios tio;           /* the terminal as we found it */
	char restore[256];            /* escape sequences that leave the screen */
	size_t restore_len;
	int saved_err;                /* the real stderr while fd 2 is captured, or -1 */
	int capture_fd;               /* the memory file behind fd 2, or -1 */
	struct sigaction old_crash[TUI_NCRASH];
	struct sigaction old_stop[TUI_NSTOP];
	bool stop_installed[TUI_NSTOP];
	volatile sig_atomic_t *stop;
} tui_term = { .saved_err = -1, .capture_fd = -1 };

bool tui_term_want_ascii(const struct tui_term_opts *o)
{
	const char *term = getenv("TERM");

	setlocale(LC_ALL, "");
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

/* A fatal signal: put the terminal back with async-signal-safe calls, then die of it. */
static void tui_term_on_crash(int sig)
{
	if (tui_term.open) {
		if (write(STDOUT_FILENO, tui_term.restore, tui_term.restore_len) < 0) {
			/* nothing more can be done */
		}
		tcsetattr(STDIN_FILENO, TCSANOW, &tui_term.tio);
		if (tui_term.saved_err >= 0) {
			dup2(tui_term.saved_err, STDERR_FILENO);
			tui_term_copy_capture(STDERR_FILENO);
		}
	}
	raise(sig); /* SA_RESETHAND: the default action, after this handler returns */
}

static void tui_term_on_stop(int sig)
{
	(void)sig;
	if (tui_term.stop)
		*tui_term.stop = 1;
}

static void tui_term_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = tui_term_on_crash;
	sa.sa_flags = SA_RESETHAND;
	for (size_t i = 0; i < TUI_NCRASH; i++)
		sigaction(tui_crash_sigs[i], &sa, &tui_term.old_crash[i]);
	/* before curses starts: ncurses only takes over signals still at SIG_DFL */
	sa.sa_handler = tui_term_on_stop;
	sa.sa_flags = 0; /* no SA_RESTART: poll() returns EINTR */
	for (size_t i = 0; i < TUI_NSTOP; i++) {
		struct sigaction cur;

		tui_term.stop_installed[i] = false;
		if (sigaction(tui_stop_sigs[i], NULL, &cur) || cur.sa_handler != SIG_DFL)
			continue;
		if (!sigaction(tui_stop_sigs[i], &sa, &tui_term.old_stop[i]))
			tui_term.stop_installed[i] = true;
	}
}

static void tui_term_unsignals(void)
{
	for (size_t i = 0; i < TUI_NCRASH; i++)
		sigaction(tui_crash_sigs[i], &tui_term.old_crash[i], NULL);
	for (size_t i = 0; i < TUI_NSTOP; i++) {
		if (tui_term.stop_installed[i])
			sigaction(tui_stop_sigs[i], &tui_term.old_stop[i], NULL);
		tui_term.stop_installed[i] = false;
	}
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

static void tui_term_atexit(void)
{
	tui_term_close(NULL);
}

int tui_term_open(const struct tui_term_opts *o, volatile sig_atomic_t *stop, char *msg,
		  size_t msglen)
{
	static bool atexit_done;
	const char *nc = getenv("NO_COLOR");

	if (tui_term.open)
		return 0;
	unsetenv("LINES");
	unsetenv("COLUMNS");
	setlocale(LC_ALL, "");
	if (tcgetattr(STDIN_FILENO, &tui_term.tio)) {
		snprintf(msg, msglen, "--tui needs a terminal on standard input: %s",
			 strerror(errno));
		return -ENOTTY;
	}
	tui_term.stop = stop;
	tui_term_signals();
	tui_term.scr = newterm(NULL, stdout, stdin);
	if (!tui_term.scr) {
		const char *term = getenv("TERM");

		tui_term_unsignals();
		snprintf(msg, msglen, "cannot start the full-screen view on terminal type \"%s\"",
			 term ? term : "");
		return -ENOTTY;
	}
	tui_term.open = true;
	tui_term_capture();
	if (!atexit_done) {
		atexit(tui_term_atexit);
		atexit_done = true;
	}
	raw();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	leaveok(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	tui_term.color = false;
	if (!o->no_color && !(nc && *nc) && has_colors()) {
		start_color();
		use_default_colors();
		tui_term.color = true;
	}
	tui_term.restore_len = 0;
	tui_term_add_cap("sgr0");
	tui_term_add_cap("cnorm");
	tui_term_add_cap("rmkx");
	tui_term_add_cap("rmcup");
	return 0;
}

void tui_term_close(struct sbuf *captured)
{
	if (!tui_term.open)
		return;
	endwin();
	tui_term.open = false;
	delscreen(tui_term.scr);
	tui_term.scr = NULL;
	tui_term_unsignals();
	tui_term_uncapture(captured);
	tui_term.stop = NULL;
}
