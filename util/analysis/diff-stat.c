// SPDX-License-Identifier: GPL-2.0
/*
 * prf diff --stat: per-entry Welch t-tests over the shares of repeated
 * runs, Holm-corrected (see diff-stat.h).
 *
 * Student's t distribution through the regularized incomplete beta
 * function: P(|T| >= t) = I_x(df/2, 1/2) with x = df / (df + t^2); I_x
 * evaluated by its continued fraction (modified Lentz), on the side of
 * x where it converges fast.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "diff-stat.h"
#include "../lib/out.h"
#include "../lib/util.h"
#include "../model/dso.h"

#define CF_TINY 1e-300

/* One step of the modified Lentz method with partial numerator num:
 * updates c and d, returns the factor the fraction is multiplied by. */
static double lentz_step(double *c, double *d, double num)
{
	*d = 1.0 + num * *d;
	*c = 1.0 + num / *c;
	if (fabs(*d) < CF_TINY)
		*d = CF_TINY;
	if (fabs(*c) < CF_TINY)
		*c = CF_TINY;
	*d = 1.0 / *d;
	return *d * *c;
}

/* The continued fraction of I_x(a, b), for x < (a + 1) / (a + b + 2). */
static double beta_cf(double a, double b, double x)
{
	double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0), f;

	if (fabs(d) < CF_TINY)
		d = CF_TINY;
	d = 1.0 / d;
	f = d;
	for (int m = 1; m <= 500; m++) {
		double del;

		/* the even and the odd term of step m */
		f *= lentz_step(&c, &d, m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m)));
		del = lentz_step(&c, &d, -(a + m) * (a + b + m) * x /
					 ((a + 2.0 * m) * (a + 2.0 * m + 1.0)));
		f *= del;
		if (fabs(del - 1.0) < 1e-15)
			break;
	}
	return f;
}

/* The regularized incomplete beta function I_x(a, b), 0 <= x <= 1. */
static double beta_inc(double a, double b, double x)
{
	double front;

	if (x <= 0.0)
		return 0.0;
	if (x >= 1.0)
		return 1.0;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1.0) / (a + b + 2.0))
		return front * beta_cf(a, b, x) / a;
	return 1.0 - front * beta_cf(b, a, 1.0 - x) / b;
}

double student_t_p2(double t, double df)
{
	if (isnan(t))
		return 1.0;
	if (isinf(t))
		return 0.0;
	return beta_inc(df / 2.0, 0.5, df / (df + t * t));
}

double student_t_quantile2(double p, double df)
{
	double lo = 0.0, hi = 1.0;

	while (student_t_p2(hi, df) > p && hi < 1e12)
		hi *= 2.0;
	for (int i = 0; i < 200 && hi - lo > 1e-10 * hi; i++) {
		double mid = (lo + hi) / 2.0;

		if (student_t_p2(mid, df) > p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2.0;
}

static double mean_of(const double *v, int n)
{
	double m = 0.0;

	for (int i = 0; i < n; i++)
		m += v[i];
	return n ? m / n : 0.0;
}

static void mean_var(const double *v, int n, double *mean, double *var)
{
	double m = 0.0, s = 0.0;

	for (int i = 0; i < n; i++)
		m += v[i];
	m /= n;
	for (int i = 0; i < n; i++)
		s += (v[i] - m) * (v[i] - m);
	*mean = m;
	*var = n > 1 ? s / (n - 1) : 0.0;
}

void diff_stat__welch(const double *a, int na, const double *b, int nb, double alpha,
		      struct diff_stat_entry *e)
{
	double va, vb, qa, qb, se2, df, t, half;

	mean_var(a, na, &e->mean_a, &va);
	mean_var(b, nb, &e->mean_b, &vb);
	e->delta = e->mean_b - e->mean_a;
	qa = va / na;
	qb = vb / nb;
	se2 = qa + qb;
	if (se2 <= 0.0) {
		e->p = e->delta == 0.0 ? 1.0 : 0.0;
		e->ci_lo = e->ci_hi = e->delta;
		return;
	}
	/* Welch-Satterthwaite */
	df = se2 * se2 / ((na > 1 ? qa * qa / (na - 1) : 0.0) + (nb > 1 ? qb * qb / (nb - 1) : 0.0));
	t = e->delta / sqrt(se2);
	e->p = student_t_p2(t, df);
	half = student_t_quantile2(alpha, df) * sqrt(se2);
	e->ci_lo = e->delta - half;
	e->ci_hi = e->delta + half;
}

static int cmp_p(const void *x, const void *y)
{
	const struct diff_stat_entry *a = *(struct diff_stat_entry *const *)x;
	const struct diff_stat_entry *b = *(struct diff_stat_entry *const *)y;

	return a->p < b->p ? -1 : a->p > b->p;
}

void diff_stat__holm(struct diff_stat_entry *e, size_t n, double alpha)
{
	struct diff_stat_entry **by_p = malloc((n + 1) * sizeof(*by_p));
	size_t m = 0;
	double run = 0.0;

	if (!by_p) {
		/* no room to sort: Bonferroni, which Holm never exceeds */
		for (size_t i = 0; i < n; i++)
			m += e[i].tested;
		for (size_t i = 0; i < n; i++) {
			e[i].p_adj = e[i].tested ? fmin(1.0, e[i].p * (double)m) : 1.0;
			e[i].changed = e[i].tested && e[i].p_adj < alpha;
		}
		return;
	}
	for (size_t i = 0; i < n; i++) {
		e[i].p_adj = 1.0;
		e[i].changed = false;
		if (e[i].tested)
			by_p[m++] = &e[i];
	}
	qsort(by_p, m, sizeof(*by_p), cmp_p);
	for (size_t j = 0; j < m; j++) {
		double adj = fmin(1.0, by_p[j]->p * (double)(m - j));

		run = fmax(run, adj);	/* step-down: never below an earlier one */
		by_p[j]->p_adj = run;
		by_p[j]->changed = run < alpha;
	}
	free(by_p);
}

/* changed first, by the size of the change; then tested; then the rest */
static int cmp_report(const void *x, const void *y)
{
	const struct diff_stat_entry *a = x, *b = y;
	double da = fabs(a->delta), db = fabs(b->delta);

	if (a->changed != b->changed)
		return a->changed ? -1 : 1;
	if (a->tested != b->tested)
		return a->tested ? -1 : 1;
	if (da != db)
		return da > db ? -1 : 1;
	return a->row < b->row ? -1 : a->row > b->row;
}

static const char *verdict(const struct diff_stat_entry *e)
{
	return e->changed ? "changed" : e->tested ? "noise" : "small";
}

static const char *key_name(int key)
{
	static const char *const names[] = {
		[SORT_COMM] = "comm", [SORT_PID] = "pid", [SORT_DSO] = "dso",
		[SORT_SYM] = "symbol", [SORT_SYMOFF] = "symoff", [SORT_CPU] = "cpu",
		[SORT_PARENT] = "parent", [SORT_SRCLINE] = "srcline", [SORT_TRACE] = "trace",
	};

	return key >= 0 && key < SORT_KEY__MAX ? names[key] : "key";
}

static void print_json(const struct diff_stat_opts *o, const struct sort_order *so,
		       const struct diff_table *t, const struct diff_stat_entry *e, size_t n,
		       int na, int nb, FILE *fp)
{
	struct out w;
	char buf[4096];

	out__init(&w, fp, OUT_JSON, NULL);
	out__begin_record(&w);
	out__field_str(&w, "event", o->event);
	out__field_u64(&w, "runs_a", (uint64_t)na);
	out__field_u64(&w, "runs_b", (uint64_t)nb);
	out__field_str(&w, "test", "welch-t");
	out__field_str(&w, "metric", o->by_period ? "period" : "share");
	out__field_str(&w, "period", o->children ? "children" : "self");
	out__field_str(&w, "correction", "holm");
	out__field_double(&w, "alpha", "%g", o->alpha);
	out__field_double(&w, "floor", "%g", o->floor);
	out__begin_array(&w, "entries");
	for (size_t i = 0; i < n; i++) {
		const struct hist_entry *he = t->rows[e[i].row].rep;

		out__begin_object(&w, NULL);
		for (int k = 0; k < so->nr_keys; k++) {
			int key = so->keys[k];

			if (key == SORT_SYM && he->sym)
				snprintf(buf, sizeof(buf), "%s", he->sym->name);
			else
				hist_entry__key_snprintf(so, he, key, buf, sizeof(buf));
			out__field_str(&w, key_name(key), buf);
		}
		out__field_double(&w, "mean_a", "%.4f", e[i].mean_a);
		out__field_double(&w, "mean_b", "%.4f", e[i].mean_b);
		out__field_double(&w, "delta", "%.4f", e[i].delta);
		if (e[i].tested) {
			out__field_double(&w, "ci_low", "%.4f", e[i].ci_lo);
			out__field_double(&w, "ci_high", "%.4f", e[i].ci_hi);
			out__field_double(&w, "p", "%.6g", e[i].p);
			out__field_double(&w, "p_adj", "%.6g", e[i].p_adj);
		}
		out__field_str(&w, "verdict", verdict(&e[i]));
		out__end_object(&w);
	}
	out__end_array(&w);
	out__end_record(&w);
}

static void print_text(const struct diff_stat_opts *o, const struct sort_order *so,
		       const struct diff_table *t, const struct diff_stat_entry *e, size_t n,
		       int na, int nb, FILE *fp)
{
	static const char dots[] = "................................................";
	/* widths of the means, the delta and the interval */
	int wm = o->by_period ? 12 : 7, wd = wm + 1, wc = o->by_period ? 30 : 20;
	size_t tested = 0;

	for (size_t i = 0; i < n; i++)
		tested += e[i].tested;
	fprintf(fp, "# Event '%s'\n#\n", o->event);
	if (o->children)
		fprintf(fp, "# children: an entry's period is its own and its callees'\n");
	if (o->by_period)
		fprintf(fp, "# %d runs A (baseline), %d runs B; the period of each run's samples "
			"(the event's unit: ns for cpu-clock)\n", na, nb);
	else
		fprintf(fp, "# %d runs A (baseline), %d runs B; shares in percent of each run's "
			"samples\n", na, nb);
	fprintf(fp, "# Welch's t-test per entry, Holm-corrected over %zu entries tested, "
		"alpha %g; %zu entries under %g%% in both groups not tested or shown\n#\n",
		tested, o->alpha, n - tested, o->floor);
	fprintf(fp, "# %*s  %*s  %*s  %-*s  %8s  %-7s", wm, "Mean A", wm, "Mean B", wd, "Delta",
		wc, "95% CI of delta", "p (Holm)", "Verdict");
	diff__put_key_headers(so, NULL, false, false, fp);
	fprintf(fp, "\n# %.*s  %.*s  %.*s  %.*s  ........  .......", wm, dots, wm, dots, wd, dots,
		wc, dots);
	diff__put_key_headers(so, NULL, false, true, fp);
	fputs("\n#\n", fp);
	for (size_t i = 0; i < n; i++) {
		char ci[64] = "", p[32] = "";

		if (!e[i].tested)
			continue;	/* under the floor: in the JSON only */
		if (e[i].tested) {
			snprintf(ci, sizeof(ci), o->by_period ? "[%+.0f, %+.0f]" : "[%+.2f, %+.2f]",
				 e[i].ci_lo, e[i].ci_hi);
			snprintf(p, sizeof(p), "%8.2g", e[i].p_adj);
		}
		if (o->by_period)
			fprintf(fp, "  %*.0f  %*.0f  %+*.0f  %-*s  %8s  %-7s", wm, e[i].mean_a, wm,
				e[i].mean_b, wd, e[i].delta, wc, ci, p, verdict(&e[i]));
		else
			fprintf(fp, "  %6.2f%%  %6.2f%%  %+7.2f%%  %-20s  %8s  %-7s", e[i].mean_a,
				e[i].mean_b, e[i].delta, ci, p, verdict(&e[i]));
		diff__put_keys(so, t->rows[e[i].row].rep, NULL, false, fp);
		fputc('\n', fp);
	}
}

/* What --fail-above compares: share points, or with periods the rise in
 * percent of the baseline mean. */
static double gate_delta(const struct diff_stat_opts *o, const struct diff_stat_entry *e)
{
	if (!o->by_period)
		return e->delta;
	return e->mean_a > 0 ? 100.0 * e->delta / e->mean_a : (e->delta > 0 ? INFINITY : 0.0);
}

int diff_stat__run(const struct diff_stat_opts *o, struct sort_order *so,
		   const struct diff_file *files, int na, int nb, FILE *fp)
{
	struct diff_table t;
	struct diff_stat_entry *e = NULL;
	struct hist_entry **reps = NULL;
	double *a = NULL, *b = NULL, *shares = NULL;
	int widths[SORT_MAX_COLUMNS];
	size_t n = 0;
	int err, ret = 0;

	err = diff_table__build(&t, so, files, na + nb, o->children);
	if (err)
		return err;
	err = -ENOMEM;
	e = calloc(t.nr_rows + 1, sizeof(*e));
	reps = calloc(t.nr_rows + 1, sizeof(*reps));
	a = calloc((size_t)na, sizeof(*a));
	b = calloc((size_t)nb, sizeof(*b));
	shares = calloc((size_t)(na + nb), sizeof(*shares));
	if (!e || !reps || !a || !b || !shares)
		goto out;
	for (size_t r = 0; r < t.nr_rows; r++) {
		struct diff_stat_entry *s = &e[n];
		bool big = false;

		if (t.rows[r].rep->filtered)
			continue;
		for (int f = 0; f < na + nb; f++) {
			uint64_t period = diff_table__cell(&t, r, f)->period;
			double share = diff_file__share(&files[f], period, false);
			double v = o->by_period ? (double)period : share;

			if (f < na)
				a[f] = v;
			else
				b[f - na] = v;
			shares[f] = share;
		}
		/* the floor is on the mean shares, whatever is tested */
		big = mean_of(shares, na) >= o->floor || mean_of(shares + na, nb) >= o->floor;
		s->row = r;
		diff_stat__welch(a, na, b, nb, o->alpha, s);
		s->tested = big;
		reps[n++] = t.rows[r].rep;
	}
	diff_stat__holm(e, n, o->alpha);
	qsort(e, n, sizeof(*e), cmp_report);
	hist_entries__col_widths(so, reps, n, widths);
	for (int c = 0; c < so->nr_cols; c++)
		so->cols[c].width = widths[c];
	if (o->json)
		print_json(o, so, &t, e, n, na, nb, fp);
	else
		print_text(o, so, &t, e, n, na, nb, fp);
	for (size_t i = 0; i < n && o->fail_above_set; i++)
		if (e[i].changed && gate_delta(o, &e[i]) > o->fail_above)
			ret = 1;
	err = ferror(fp) ? -EPIPE : ret;
out:
	diff_table__exit(&t);
	free(e);
	free(reps);
	free(a);
	free(b);
	free(shares);
	return err;
}
