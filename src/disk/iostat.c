#include "config.h"

#include "iostat.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "json.h"

#define U32_RANGE (UINT64_C(1) << 32)
#define WRAP_MAX (UINT64_C(1) << 31)

/*
 * Δ of field f from p to c. Returns false when the counter went backwards
 * in a way that is not a plausible 32-bit wrap (see the header).
 */
static bool field_delta(const struct disk_counters *p, const struct disk_counters *c,
			unsigned f, uint64_t *d)
{
	uint64_t pv = p->v[f], cv = c->v[f];

	if (diskstats_field_is_u32(f)) {
		*d = (uint32_t)((uint32_t)cv - (uint32_t)pv);
		return true;
	}
	if (cv >= pv) {
		*d = cv - pv;
		return true;
	}
	if (pv <= UINT32_MAX && cv + U32_RANGE - pv < WRAP_MAX) {
		*d = cv + U32_RANGE - pv;
		return true;
	}
	return false;
}

static bool same_device(const struct disk_counters *p, const struct disk_counters *c)
{
	return p->major == c->major && p->minor == c->minor && strcmp(p->name, c->name) == 0;
}

/* sysstat's S_VALUE: Δ / itv * 100 with itv in centiseconds. */
static double rate(uint64_t d, double itv_cs)
{
	return (double)d / itv_cs * 100;
}

/*
 * Δmerges / (Δmerges + Δios) * 100, 0 when the sum is 0. Sums are taken in
 * double: exact below 2^53, and no 64-bit wrap for absurd counters.
 */
static double merge_pct(uint64_t merges, uint64_t ios)
{
	double sum = (double)merges + (double)ios;

	return sum > 0 ? (double)merges / sum * 100 : 0.0;
}

/* a / b, 0 when b is 0. */
static double per(double a, double b)
{
	return b > 0 ? a / b : 0.0;
}

int iostat_compute(const struct disk_counters *prev, const struct disk_counters *cur,
		   uint64_t interval_ns, struct iostat_row *out)
{
	struct disk_counters zero;
	uint64_t d[DISKSTATS_NFIELDS];
	double itv;
	unsigned f;

	if (!out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->interval_ns = interval_ns;
	if (!cur || !interval_ns)
		return -EINVAL;
	out->in_flight = (double)(uint32_t)cur->v[DS_IN_FLIGHT];
	if (!prev) {
		memset(&zero, 0, sizeof(zero));
		zero.major = cur->major;
		zero.minor = cur->minor;
		memcpy(zero.name, cur->name, sizeof(zero.name));
		zero.nfields = cur->nfields;
		prev = &zero;
	}
	if (!same_device(prev, cur)) {
		out->reset = true;
		return IOSTAT_RESET;
	}
	for (f = 0; f < DISKSTATS_NFIELDS; f++) {
		if (!field_delta(prev, cur, f, &d[f])) {
			out->reset = true;
			return IOSTAT_RESET;
		}
	}

	itv = (double)interval_ns / 1e7;

	out->r_s = rate(d[DS_RD_IOS], itv);
	out->rkb_s = rate(d[DS_RD_SECTORS], itv) / 2;
	out->rrqm_s = rate(d[DS_RD_MERGES], itv);
	out->rrqm_pct = merge_pct(d[DS_RD_MERGES], d[DS_RD_IOS]);
	out->r_await = per(d[DS_RD_TICKS], d[DS_RD_IOS]);
	out->rareq_sz = per(d[DS_RD_SECTORS], d[DS_RD_IOS]) / 2;

	out->w_s = rate(d[DS_WR_IOS], itv);
	out->wkb_s = rate(d[DS_WR_SECTORS], itv) / 2;
	out->wrqm_s = rate(d[DS_WR_MERGES], itv);
	out->wrqm_pct = merge_pct(d[DS_WR_MERGES], d[DS_WR_IOS]);
	out->w_await = per(d[DS_WR_TICKS], d[DS_WR_IOS]);
	out->wareq_sz = per(d[DS_WR_SECTORS], d[DS_WR_IOS]) / 2;

	out->d_s = rate(d[DS_DC_IOS], itv);
	out->dkb_s = rate(d[DS_DC_SECTORS], itv) / 2;
	out->drqm_s = rate(d[DS_DC_MERGES], itv);
	out->drqm_pct = merge_pct(d[DS_DC_MERGES], d[DS_DC_IOS]);
	out->d_await = per(d[DS_DC_TICKS], d[DS_DC_IOS]);
	out->dareq_sz = per(d[DS_DC_SECTORS], d[DS_DC_IOS]) / 2;

	out->f_s = rate(d[DS_FL_IOS], itv);
	out->f_await = per(d[DS_FL_TICKS], d[DS_FL_IOS]);

	out->aqu_sz = rate(d[DS_TIME_IN_QUEUE], itv) / 1000.0;
	out->util = rate(d[DS_IO_TICKS], itv) / 10.0;

	{
		/* in double, so absurd counters cannot wrap the sums */
		double ios = (double)d[DS_RD_IOS] + (double)d[DS_WR_IOS] + (double)d[DS_DC_IOS];
		double sect = (double)d[DS_RD_SECTORS] + (double)d[DS_WR_SECTORS] +
			      (double)d[DS_DC_SECTORS];
		double ticks = (double)d[DS_RD_TICKS] + (double)d[DS_WR_TICKS] +
			       (double)d[DS_DC_TICKS];

		out->tps = ios / itv * 100;
		out->await = per(ticks, ios);
		out->avgrq_sz = per(sect, ios);
	}
	return 0;
}

int iostat_format_header(struct sbuf *sb)
{
	return sbuf_puts(sb, "Device       "
			 "     r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz"
			 "     w/s     wkB/s   wrqm/s  %wrqm w_await wareq-sz"
			 "     d/s     dkB/s   drqm/s  %drqm d_await dareq-sz"
			 "     f/s f_await  aqu-sz  %util\n");
}

int iostat_format_row(struct sbuf *sb, const char *devname, const struct iostat_row *r)
{
	static const struct iostat_row zero;

	if (!r)
		r = &zero;
	sbuf_printf(sb, "%-13s", devname ? devname : "");
	sbuf_printf(sb, " %7.2f %9.2f %8.2f %6.2f %7.2f %8.2f",
		    r->r_s, r->rkb_s, r->rrqm_s, r->rrqm_pct, r->r_await, r->rareq_sz);
	sbuf_printf(sb, " %7.2f %9.2f %8.2f %6.2f %7.2f %8.2f",
		    r->w_s, r->wkb_s, r->wrqm_s, r->wrqm_pct, r->w_await, r->wareq_sz);
	sbuf_printf(sb, " %7.2f %9.2f %8.2f %6.2f %7.2f %8.2f",
		    r->d_s, r->dkb_s, r->drqm_s, r->drqm_pct, r->d_await, r->dareq_sz);
	return sbuf_printf(sb, " %7.2f %7.2f %7.2f %6.2f\n",
			   r->f_s, r->f_await, r->aqu_sz, r->util);
}

int iostat_format_table(struct sbuf *sb, const struct iostat_dev_row *rows, size_t n)
{
	int ret = iostat_format_header(sb);

	for (size_t i = 0; i < n; i++)
		ret = iostat_format_row(sb, rows[i].name, rows[i].row);
	return ret; /* sbuf errors are sticky: the last call reports any */
}

int iostat_json_row(struct sbuf *sb, const char *devname, const struct iostat_row *r)
{
	static const struct iostat_row zero;

	if (!r)
		r = &zero;
	sbuf_puts(sb, "{\"disk_device\": ");
	json_append_string(sb, devname ? devname : "");
	sbuf_printf(sb, ", \"r/s\": %.2f, \"w/s\": %.2f, \"d/s\": %.2f, \"f/s\": %.2f, ",
		    r->r_s, r->w_s, r->d_s, r->f_s);
	sbuf_printf(sb, "\"rkB/s\": %.2f, \"wkB/s\": %.2f, \"dkB/s\": %.2f, ",
		    r->rkb_s, r->wkb_s, r->dkb_s);
	sbuf_printf(sb, "\"rrqm/s\": %.2f, \"wrqm/s\": %.2f, \"drqm/s\": %.2f, "
		    "\"rrqm\": %.2f, \"wrqm\": %.2f, \"drqm\": %.2f, "
		    "\"r_await\": %.2f, \"w_await\": %.2f, \"d_await\": %.2f, \"f_await\": %.2f, "
		    "\"rareq-sz\": %.2f, \"wareq-sz\": %.2f, \"dareq-sz\": %.2f, "
		    "\"aqu-sz\": %.2f, ",
		    r->rrqm_s, r->wrqm_s, r->drqm_s,
		    r->rrqm_pct, r->wrqm_pct, r->drqm_pct,
		    r->r_await, r->w_await, r->d_await, r->f_await,
		    r->rareq_sz, r->wareq_sz, r->dareq_sz,
		    r->aqu_sz);
	return sbuf_printf(sb, "\"util\": %.2f}", r->util);
}
