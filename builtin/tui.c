/* SPDX-License-Identifier: MIT */
/*
 * calltrace tui: a terminal UI (ncurses) over the recording.
 *
 * One pass over the recording gathers what `graph` and `report` gather,
 * with their own code: the call tree by call path (lib/view/calltree.h)
 * and the flat profile's rows (lib/view/flat.h), so that every number is
 * theirs.  The rest is built lazily, when it is shown: a node's children
 * are sorted when it is first unfolded, the callers and callees of the
 * functions (as `callers` counts them: an edge's time once per outermost
 * activation of that edge) when the first function's are asked for.
 *
 * Views: the call graph (folded and unfolded by keys), the flat profile
 * (sorted by a column the keys pick), a function's callers and callees,
 * the help.  The last two lines are the status line (the recording, the
 * view, the selected function) and a line for messages and the search.
 */
#include <ctype.h>
#include <curses.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin/builtin.h"
#include "builtin/tui.h"
#include "calltree.h"
#include "filter.h"
#include "flat.h"
#include "message.h"
#include "output.h"
#include "overhead.h"
#include "session.h"
#include "srcline.h"
#include "util.h"
#include "view.h"

/* the smallest terminal drawn in: the flat profile's columns and a name */
#define MIN_COLS 80
#define MIN_LINES 10
/* deeper nodes are drawn with their depth as a number, as graph does */
#define MAX_INDENT 64
/* after a name whose time is mostly the tracer's, as graph and report
 * mark it (lib/read/overhead.h) */
#define COST_MARK " *"

static const char head[] =
	"usage: calltrace tui [options]\n"
	"\n"
	"A terminal UI over the recording: the call graph folded and unfolded\n"
	"by keys, the flat profile sorted by any column, each function's callers\n"
	"and callees, its source line, search.  The numbers are those of graph,\n"
	"report and callers.  Press ? in it for the keys.\n"
	"\n"
	"options:\n";

static const char tail[] = "\n"
			   "stdin and stdout must be a terminal of at least 80x10.  Times have\n"
			   "the tracer's own cost taken out (doc/overhead.md); --raw shows them\n"
			   "as recorded.\n";

static const char *const help_text[] = {
	"keys of calltrace tui",
	"",
	"  q            quit (from the help: back)",
	"  ? h          this help",
	"  g            the call graph",
	"  r            the flat profile (report)",
	"  c            the callers and callees of the selected function",
	"  Tab          the next view",
	"  Up Down k j  move; PgUp PgDn, Home End move further",
	"  Enter space  graph: fold or unfold; report: the function's callers;",
	"               callers: the callers and callees of the function selected",
	"  Right Left   graph: unfold, fold (or go to the parent)",
	"  + -          graph: unfold all, fold all",
	"  s S          report: sort by the next or previous column",
	"  1 .. 7       report: sort by total, self, calls, avg, min, max, name",
	"  b Backspace  callers: back to the function before",
	"  l            the selected function's source line (file:line)",
	"  / n N        search a function (substring), next, previous match",
	"",
	"The numbers are those of calltrace graph, report and callers.  A name",
	"marked * has a recorded time more than 5 times its corrected one: its",
	"time is mostly the tracer's own cost (doc/overhead.md).",
};

static const char *const view_names[] = {"graph", "report", "callers", "help"};
static const char *const col_names[] = {"total", "self", "calls", "avg", "min", "max", "name"};

/* ---- drawing ---------------------------------------------------------------- */

static size_t nrows_of(const struct tui *u, enum view v)
{
	switch (v) {
	case V_GRAPH:
		return u->nvis;
	case V_REPORT:
		return u->nrows;
	case V_CALLERS:
		return u->ncrows;
	default:
		return sizeof(help_text) / sizeof(help_text[0]);
	}
}

/* the function of row r of view v, or ROOT */
static uint32_t func_of(const struct tui *u, enum view v, size_t r)
{
	if (r >= nrows_of(u, v))
		return ROOT;
	switch (v) {
	case V_GRAPH:
		return u->tree.n[u->vis[r]].name;
	case V_REPORT:
		return u->rows[r];
	case V_CALLERS:
		return u->crows[r].id;
	default:
		return ROOT;
	}
}

/* the selected function, or ROOT */
static uint32_t selected(const struct tui *u)
{
	return func_of(u, u->view, u->sel[u->view]);
}

static int body_lines(void)
{
	return LINES - 3; /* the header, the status line, the message line */
}

/* text from column x on line y, cut at the screen's edge */
static void put(int y, int x, const char *s)
{
	if (x < COLS)
		mvaddnstr(y, x, s, COLS - x);
}

static void draw_graph_row(struct tui *u, int y, size_t r)
{
	uint32_t node = u->vis[r];
	const struct ct_tnode *n = &u->tree.n[node];
	char b[2][64], line[1024];
	int len = snprintf(line, sizeof(line), "  %s  %s  %8llu  %c ",
			   ct_format_duration(n->total, b[0], sizeof(b[0])),
			   ct_format_duration(n->self, b[1], sizeof(b[1])),
			   (unsigned long long)n->calls,
			   n->first_child == CT_TREE_NONE ? ' '
			   : u->open[node]                ? '-'
							  : '+');
	/* the bars as graph draws them: an ancestor with later siblings
	 * continues its bar */
	char bars[2 * MAX_INDENT + 16];
	size_t nb = 0;
	uint32_t d = n->depth - 1;
	if (d > MAX_INDENT) {
		nb = (size_t)snprintf(bars, sizeof(bars), "[%u] +-", d);
	} else if (d > 0) {
		nb = 2 * (size_t)d;
		memcpy(bars + nb - 2, "+-", 2);
		uint32_t a = n->parent;
		for (uint32_t k = d - 1; k >= 1; k--, a = u->tree.n[a].parent)
			memcpy(bars + 2 * (k - 1), u->last[a] ? "  " : "| ", 2);
	}
	bars[nb] = 0;
	snprintf(line + len, sizeof(line) - (size_t)len, "%s%s%s", bars, ct_tx(u->names.v[n->name]),
		 ct_mostly_cost(n->total, n->rtotal) ? COST_MARK : "");
	put(y, 0, line);
}

static void draw_report_row(struct tui *u, int y, size_t r)
{
	const struct ct_fstat *st = &u->stats[u->rows[r]];
	char b[6][64], line[1024];
	snprintf(line, sizeof(line), "  %s  %s  %10llu %s %s %s  %s%s",
		 ct_format_duration(st->total, b[0], sizeof(b[0])),
		 ct_format_duration(st->self, b[1], sizeof(b[1])), (unsigned long long)st->calls,
		 ct_format_duration(ct_fstat_avg(st), b[2], sizeof(b[2])),
		 ct_format_duration(st->min, b[3], sizeof(b[3])),
		 ct_format_duration(st->max, b[4], sizeof(b[4])), ct_tx(u->names.v[u->rows[r]]),
		 ct_mostly_cost(st->total, st->rtotal) ? COST_MARK : "");
	put(y, 0, line);
}

static void draw_callers_row(struct tui *u, int y, size_t r)
{
	const struct crow *c = &u->crows[r];
	char b[2][64], line[1024];
	if (c->kind == 0) {
		const struct ct_fstat *st = &u->stats[c->id];
		snprintf(line, sizeof(line), "  %s  %s  %10llu  %s",
			 ct_format_duration(st->total, b[0], sizeof(b[0])),
			 ct_format_duration(st->self, b[1], sizeof(b[1])),
			 (unsigned long long)st->calls, ct_tx(tui_name_of(u, c->id)));
		attron(A_BOLD);
		put(y, 0, line);
		attroff(A_BOLD);
		return;
	}
	const struct edge *e = &u->edges[c->edge];
	snprintf(line, sizeof(line), "  %s  %10s  %10llu      %s %s",
		 ct_format_duration(e->time, b[0], sizeof(b[0])), "", (unsigned long long)e->calls,
		 c->kind < 0 ? "<" : ">", ct_tx(tui_name_of(u, c->id)));
	put(y, 0, line);
}

static void draw_status(struct tui *u)
{
	char line[1024];
	uint32_t f = selected(u);
	size_t n = nrows_of(u, u->view);
	const char *cmd = u->v->s->command ? u->v->s->command : "?";
	int len = snprintf(line, sizeof(line), " [%s", view_names[u->view]);
	if (u->view == V_REPORT)
		len += snprintf(line + len, sizeof(line) - (size_t)len, ", by %s",
				col_names[u->col]);
	if (u->view == V_CALLERS)
		len += snprintf(line + len, sizeof(line) - (size_t)len, " of %s",
				ct_tx(tui_name_of(u, u->func)));
	len += snprintf(line + len, sizeof(line) - (size_t)len, "]  %s  %zu/%zu  %s (%s)",
			f == ROOT ? "-" : ct_tx(tui_name_of(u, f)), n ? u->sel[u->view] + 1 : 0, n,
			ct_tx(u->v->dir), ct_tx(cmd));
	if (len >= (int)sizeof(line))
		len = (int)sizeof(line) - 1;
	static const char hint[] = "  ?:help q:quit ";
	if (len + (int)sizeof(hint) <= COLS)
		snprintf(line + len, sizeof(line) - (size_t)len, "%*s", COLS - len, hint);
	attron(A_REVERSE);
	mvhline(LINES - 2, 0, ' ', COLS);
	put(LINES - 2, 0, line);
	attroff(A_REVERSE);
	put(LINES - 1, 0, u->msg);
}

static void draw(struct tui *u)
{
	erase();
	if (COLS < MIN_COLS || LINES < MIN_LINES) {
		char line[2][64];
		snprintf(line[0], sizeof(line[0]), "terminal too small: %dx%d", COLS, LINES);
		snprintf(line[1], sizeof(line[1]), "calltrace tui needs %dx%d", MIN_COLS,
			 MIN_LINES);
		/* as much as fits */
		mvaddnstr(0, 0, line[0], COLS);
		if (LINES > 1)
			mvaddnstr(1, 0, line[1], COLS);
		if (LINES > 2)
			mvaddnstr(2, 0, "enlarge it, or q to quit", COLS);
		refresh();
		return;
	}
	enum view v = u->view;
	size_t n = nrows_of(u, v), h = (size_t)body_lines();
	if (u->sel[v] >= n)
		u->sel[v] = n ? n - 1 : 0;
	if (u->sel[v] < u->top[v])
		u->top[v] = u->sel[v];
	if (u->sel[v] >= u->top[v] + h)
		u->top[v] = u->sel[v] - h + 1;
	attron(A_BOLD);
	switch (v) {
	case V_GRAPH:
		put(0, 0, "  TOTAL TIME   SELF TIME     CALLS    FUNCTION");
		break;
	case V_REPORT:
		put(0, 0,
		    "  Total time   Self time       Calls    Average        Min        Max  "
		    "Function");
		break;
	case V_CALLERS:
		put(0, 0, "  TOTAL TIME   SELF TIME       CALLS  FUNCTION (< caller, > callee)");
		break;
	default:
		break;
	}
	attroff(A_BOLD);
	for (size_t i = 0; i < h && u->top[v] + i < n; i++) {
		size_t r = u->top[v] + i;
		int y = (int)i + 1;
		bool sel = r == u->sel[v] && v != V_HELP;
		if (sel)
			attron(A_REVERSE);
		switch (v) {
		case V_GRAPH:
			draw_graph_row(u, y, r);
			break;
		case V_REPORT:
			draw_report_row(u, y, r);
			break;
		case V_CALLERS:
			draw_callers_row(u, y, r);
			break;
		default:
			put(y, 0, help_text[r]);
			break;
		}
		if (sel) {
			/* the whole line */
			int cy, cx;
			getyx(stdscr, cy, cx);
			if (cy == y && cx < COLS)
				mvhline(y, cx, ' ', COLS - cx);
			attroff(A_REVERSE);
		}
	}
	draw_status(u);
	refresh();
}

/* ---- keys ------------------------------------------------------------------- */

static void message(struct tui *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void message(struct tui *u, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(u->msg, sizeof(u->msg), fmt, ap);
	va_end(ap);
}

/* the search's text read on the message line; false when cancelled */
static bool prompt(struct tui *u)
{
	char buf[sizeof(u->search)] = "";
	size_t n = 0;
	for (;;) {
		snprintf(u->msg, sizeof(u->msg), "/%s", buf);
		draw(u);
		int c = getch();
		if (c == '\n' || c == '\r' || c == KEY_ENTER)
			break;
		if (c == 27 || c == 7) { /* Esc, ^G */
			u->msg[0] = 0;
			return false;
		}
		if ((c == KEY_BACKSPACE || c == 127 || c == 8) && n)
			buf[--n] = 0;
		else if (c >= 32 && c < 256 && c != 127 && n + 1 < sizeof(buf)) {
			buf[n++] = (char)c;
			buf[n] = 0;
		}
	}
	u->msg[0] = 0;
	if (!n)
		return u->search[0] != 0; /* empty: the last search again */
	memcpy(u->search, buf, n + 1);
	return true;
}

/* the next (dir 1) or previous (-1) function whose name holds the search */
static void search(struct tui *u, int dir)
{
	if (!u->search[0]) {
		message(u, "no search yet: / to search");
		return;
	}
	enum view v = u->view;
	if (v == V_GRAPH && dir > 0) {
		/* the whole tree, unfolded where the match is */
		uint32_t start = u->nvis ? u->vis[u->sel[V_GRAPH]] : 0;
		for (uint32_t x = tui_next_node(u, start); x != start; x = tui_next_node(u, x)) {
			if (x && strstr(u->names.v[u->tree.n[x].name], u->search)) {
				tui_reveal(u, x);
				message(u, "/%s", u->search);
				return;
			}
			if (!x && !start)
				break;
		}
		message(u, "not found: %s", u->search);
		return;
	}
	size_t n = nrows_of(u, v);
	for (size_t k = 1; k <= n; k++) {
		size_t r = (u->sel[v] + (dir > 0 ? k : n - k % n)) % n;
		uint32_t f = func_of(u, v, r);
		if (f != ROOT && strstr(u->names.v[f], u->search)) {
			u->sel[v] = r;
			message(u, "%s%s", dir > 0 ? "/" : "?", u->search);
			return;
		}
	}
	message(u, "not found: %s", u->search);
}

static void srcline(struct tui *u)
{
	uint32_t f = selected(u);
	if (f == ROOT)
		return;
	const char *line = u->procs[f] && u->addrs[f]
				   ? ct_srcline_func(u->v->s, u->procs[f], u->addrs[f])
				   : NULL;
	if (line)
		message(u, "%s: %s", ct_tx(u->names.v[f]), line);
	else
		message(u, "%s: no source line (no line table for it)", ct_tx(u->names.v[f]));
}

static void move_sel(struct tui *u, long delta)
{
	enum view v = u->view;
	long n = (long)nrows_of(u, v), s = (long)u->sel[v] + delta;
	if (v == V_HELP) {
		/* the help scrolls */
		long t = (long)u->top[v] + delta, max = n - body_lines();
		u->top[v] = (size_t)(t < 0 ? 0 : t > max ? (max > 0 ? max : 0) : t);
		u->sel[v] = u->top[v];
		return;
	}
	u->sel[v] = (size_t)(s < 0 ? 0 : s >= n ? (n ? n - 1 : 0) : s);
}

static void key_graph(struct tui *u, int c)
{
	size_t r = u->sel[V_GRAPH];
	if (!u->nvis)
		return;
	uint32_t node = u->vis[r];
	switch (c) {
	case '\n':
	case '\r':
	case KEY_ENTER:
	case ' ':
		tui_set_open(u, r, !u->open[node]);
		break;
	case KEY_RIGHT:
		tui_set_open(u, r, true);
		break;
	case KEY_LEFT:
		if (u->open[node]) {
			tui_set_open(u, r, false);
		} else if (u->tree.n[node].parent) {
			uint32_t p = u->tree.n[node].parent;
			while (r > 0 && u->vis[r] != p)
				r--;
			u->sel[V_GRAPH] = r;
		}
		break;
	case '+':
		tui_set_all(u, true);
		break;
	case '-':
		tui_set_all(u, false);
		break;
	}
}

static void key_report(struct tui *u, int c)
{
	if (c >= '1' && c < '1' + NCOLS) {
		u->col = (enum col)(c - '1');
	} else if (c == 's') {
		u->col = (enum col)((u->col + 1) % NCOLS);
	} else if (c == 'S') {
		u->col = (enum col)((u->col + NCOLS - 1) % NCOLS);
	} else {
		if ((c == '\n' || c == '\r' || c == KEY_ENTER || c == ' ') && u->nrows)
			tui_show_callers(u, u->rows[u->sel[V_REPORT]], false);
		return;
	}
	tui_sort_rows(u);
	message(u, "sorted by %s", col_names[u->col]);
}

static void key_callers(struct tui *u, int c)
{
	switch (c) {
	case '\n':
	case '\r':
	case KEY_ENTER:
	case ' ': {
		uint32_t f = selected(u);
		if (f != ROOT && f != u->func)
			tui_show_callers(u, f, true);
		break;
	}
	case 'b':
	case KEY_BACKSPACE:
	case 127:
	case 8:
	case KEY_LEFT:
		if (u->nhistory)
			tui_show_callers(u, u->history[--u->nhistory], false);
		else
			message(u, "no function before");
		break;
	}
}

static void key(struct tui *u, int c)
{
	if (c == KEY_RESIZE)
		return;
	if (COLS < MIN_COLS || LINES < MIN_LINES) {
		u->quit = c == 'q' || c == 'Q';
		return;
	}
	u->msg[0] = 0;
	if (u->view == V_HELP) {
		if (c == KEY_UP || c == 'k' || c == KEY_DOWN || c == 'j' || c == KEY_NPAGE ||
		    c == KEY_PPAGE)
			move_sel(u, c == KEY_UP || c == 'k'     ? -1
				    : c == KEY_DOWN || c == 'j' ? 1
				    : c == KEY_NPAGE            ? body_lines()
								: -body_lines());
		else
			u->view = u->back;
		return;
	}
	switch (c) {
	case 'q':
	case 'Q':
		u->quit = true;
		return;
	case '?':
	case 'h':
		u->back = u->view;
		u->view = V_HELP;
		u->top[V_HELP] = u->sel[V_HELP] = 0;
		return;
	case 'g':
		u->view = V_GRAPH;
		return;
	case 'r':
		u->view = V_REPORT;
		return;
	case '\t':
		u->view = u->view == V_GRAPH ? V_REPORT : V_GRAPH;
		return;
	case 'c': {
		uint32_t f = selected(u);
		if (f != ROOT)
			tui_show_callers(u, f, true);
		return;
	}
	case 'l':
		srcline(u);
		return;
	case '/':
		if (prompt(u))
			search(u, 1);
		return;
	case 'n':
		search(u, 1);
		return;
	case 'N':
		search(u, -1);
		return;
	case KEY_UP:
	case 'k':
		move_sel(u, -1);
		return;
	case KEY_DOWN:
	case 'j':
		move_sel(u, 1);
		return;
	case KEY_PPAGE:
		move_sel(u, -body_lines());
		return;
	case KEY_NPAGE:
		move_sel(u, body_lines());
		return;
	case KEY_HOME:
		u->sel[u->view] = 0;
		return;
	case KEY_END:
		move_sel(u, (long)nrows_of(u, u->view));
		return;
	}
	if (u->view == V_GRAPH)
		key_graph(u, c);
	else if (u->view == V_REPORT)
		key_report(u, c);
	else if (u->view == V_CALLERS)
		key_callers(u, c);
}

/* ---- the command --------------------------------------------------------- */

static const struct ct_opt options[] = {
	CT_OPT_DATA,
	{"tid", CT_OPT_TID, "TID[,TID..]", "only these threads (default: all, aggregated)"},
	CT_OPT_CALL_FILTERS("only calls at depth < N (counted as in replay)"),
	CT_OPT_RANGE,
	CT_OPT_DEMANGLE,
	CT_OPT_SYMS,
	CT_OPT_RAWTIMES,
	CT_OPT_HELP,
	CT_OPT_END,
};

/* a terminal to draw in, checked before the recording is read */
static int check(struct ct_view *v)
{
	(void)v;
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return ct_error("not a terminal: stdin and stdout must be one (report and graph "
				"print the same figures)")
			       ? 2
			       : 2;
	return 0;
}

/* what was read, ready to show */
static void prepare(struct tui *u)
{
	size_t len = u->tree.len;
	u->kids = xcalloc(len, sizeof(*u->kids));
	u->nkids = xcalloc(len, sizeof(*u->nkids));
	u->open = xcalloc(len, sizeof(*u->open));
	u->last = xcalloc(len, sizeof(*u->last));
	tui_rebuild_vis(u);
	u->rows = xmalloc((u->names.n ? u->names.n : 1) * sizeof(*u->rows));
	for (size_t i = 0; i < u->names.n; i++)
		if (u->stats[i].calls || u->stats[i].frames)
			u->rows[u->nrows++] = (uint32_t)i;
	tui_sort_rows(u);
}

static void run(struct tui *u)
{
	setlocale(LC_ALL, "");
	initscr();
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	while (!u->quit) {
		draw(u);
		int c = getch();
		if (c == ERR)
			break; /* the terminal went */
		key(u, c);
	}
	endwin();
}

static void tui_free(struct tui *u)
{
	free(u->stats);
	free(u->active);
	free(u->procs);
	free(u->addrs);
	free(u->stack);
	ct_tree_free(&u->tree);
	if (u->kids)
		for (size_t i = 0; i < u->tree.len; i++)
			free(u->kids[i]);
	free(u->kids);
	free(u->nkids);
	free(u->open);
	free(u->last);
	free(u->vis);
	free(u->rows);
	free(u->edges);
	if (u->have_edges)
		ct_u64map_free(&u->byedge);
	free(u->crows);
	free(u->history);
	ct_names_free(&u->names);
}

int cmd_tui(int argc, char **argv)
{
	struct tui u = {0};
	/* clang-format off */
	struct ct_view v = {.head = head, .tail = tail, .opts = options, .ctx = &u,
			    .unfiltered = tui_unfiltered, .check = check};
	/* clang-format on */
	u.v = &v;
	ct_names_init(&u.names);
	ct_tree_init(&u.tree);
	int status = ct_view_start(&v, argc, argv);
	if (status == 1)
		status = 2; /* the recording: the reader's message said why */
	if (status < 0) {
		u.filt = &v.filt;
		int rc = ct_view_read(&v, tui_read_thread, &u);
		if (ct_view_finish(&v, rc, NULL, NULL)) {
			status = 2;
		} else {
			prepare(&u);
			run(&u);
			status = 0;
		}
	}
	tui_free(&u);
	ct_view_close(&v);
	return status;
}
