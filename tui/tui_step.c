/*
 * tui_step: a probe step with a screen of its own (--sweep, --qualify) run
 * inside the view's one loop (tui_loop_run): the step's session records
 * drained as they come, its screen painted each frame, q and Ctrl-L; and,
 * after the last step, the screen held until q. A stop signal, q or the
 * terminal going away end it (quit).
 */
#include "config.h"

#include <curses.h>
#include <unistd.h>

#include "tui_int.h"
#include "tui_keys.h"

struct step_loop {
	struct tui_step *st;
	struct session *ss;       /* NULL: held after the last step */
	struct pollfd pfd[2];
};

static bool step_done(void *ctx)
{
	struct step_loop *l = ctx;

	return l->st->quit || (l->ss && session_state(l->ss) != SESSION_RUNNING);
}

static struct pollfd *step_fds(void *ctx, size_t *n)
{
	struct step_loop *l = ctx;

	l->pfd[0] = (struct pollfd){ STDIN_FILENO, POLLIN, 0 };
	if (l->ss)
		l->pfd[1] = (struct pollfd){ session_wake_fd(l->ss), POLLIN, 0 };
	*n = l->ss ? 2 : 1;
	return l->pfd;
}

static int step_sleep(void *ctx, uint64_t mono)
{
	(void)mono;
	return ((struct step_loop *)ctx)->ss ? (int)TUI_FRAME_MS : 1000;
}

static void step_woke(void *ctx, int r, uint64_t mono)
{
	struct step_loop *l = ctx;

	(void)r;
	(void)mono;
	if (l->ss)
		l->st->drain(l->st->ctx, l->ss);
}

static void step_key(void *ctx, int ch, uint64_t mono)
{
	struct step_loop *l = ctx;
	enum tui_action act = tui_key_action(ch);

	(void)mono;
	if (act == TUI_ACT_QUIT)
		l->st->quit = true;
	else if (act == TUI_ACT_REDRAW)
		clearok(curscr, TRUE);
}

static void step_paint(void *ctx, uint64_t mono)
{
	struct step_loop *l = ctx;

	(void)mono;
	l->st->paint(l->st->ctx);
}

/* Run the loop over l; what ended it other than the step's own end is a quit. */
static void step_loop(struct step_loop *l, const volatile sig_atomic_t *stop)
{
	const struct tui_loop_ops ops = { l, step_done, step_fds, step_sleep, step_woke, step_key,
					  step_paint };

	l->st->paint(l->st->ctx);
	tui_loop_run(&ops, stop);
	if (!l->ss || session_state(l->ss) == SESSION_RUNNING)
		l->st->quit = true; /* q, a stop signal, or the terminal went away */
}

void tui_step_run(struct tui_step *st, struct session *ss, const volatile sig_atomic_t *stop)
{
	struct step_loop l = { st, ss, { { 0 } } };

	step_loop(&l, stop);
	st->drain(st->ctx, ss); /* what came after the last wake */
}

void tui_step_hold(struct tui_step *st, const volatile sig_atomic_t *stop)
{
	struct step_loop l = { st, NULL, { { 0 } } };

	step_loop(&l, stop);
}
