/* SPDX-License-Identifier: MIT */
/*
 * reader_walk: every event of a recording read through the reading library
 * (include/calltrace/reader.h), for bench/reader.sh: the events are counted
 * and their name ids summed (so that nothing is optimised away), then the
 * count printed.
 *
 *   reader_walk MODE DIR      MODE: threads (each thread in turn, in
 *                             batches, as report reads), merged (all
 *                             threads in time order), next (one event a
 *                             call), corrected (threads, with the
 *                             corrected times)
 */
#include <calltrace/reader.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static int fail(const char *msg)
{
	fprintf(stderr, "reader_walk: %s\n", msg);
	return 1;
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return fprintf(stderr, "usage: reader_walk threads|merged|next|corrected DIR\n"), 2;
	const char *mode = argv[1];
	ct_reader *r;
	struct ct_reader_error err;
	if (ct_reader_open(argv[2], 0, &r, &err) < 0)
		return fail(err.message);
	static struct ct_reader_rec recs[4096];
	unsigned long long events = 0, sum = 0;
	bool merged = !strcmp(mode, "merged");
	unsigned flags = !strcmp(mode, "corrected") ? CT_READER_CORRECTED : 0;
	size_t nwalks = merged ? 1 : ct_reader_thread_count(r);
	for (size_t t = 0; t < nwalks; t++) {
		ct_reader_iter *it;
		if (ct_reader_iter_open(r, merged ? CT_READER_ALL_THREADS : t, flags, &it, &err) <
		    0)
			return fail(err.message);
		int n;
		if (!strcmp(mode, "next")) {
			struct ct_reader_event ev;
			while ((n = ct_reader_next(it, &ev, &err)) > 0) {
				events++;
				sum += ev.name_id;
			}
		} else {
			while ((n = ct_reader_read(it, recs, 4096, &err)) > 0) {
				events += (unsigned)n;
				for (int i = 0; i < n; i++)
					sum += recs[i].name;
			}
		}
		ct_reader_iter_close(it);
		if (n < 0)
			return fail(err.message);
	}
	printf("%llu %llu\n", events, sum);
	ct_reader_close(r);
	return 0;
}
