/* A small program to trace: a word-frequency count over generated text,
 * a merge sort of the results, and two worker threads. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NWORDS 2000
#define TABLE 512

struct entry {
	char word[16];
	int count;
	struct entry *next;
};

static struct entry *table[TABLE];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static unsigned hash(const char *s)
{
	unsigned h = 5381;
	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h % TABLE;
}

static void make_word(unsigned seed, char *out)
{
	static const char *syl[] = {"ka", "lo", "mi", "ne", "ru", "ta", "vo"};
	int n = 1 + seed % 3;
	out[0] = 0;
	for (int i = 0; i < n; i++) {
		strcat(out, syl[seed % 7]);
		seed /= 7;
	}
}

static void count_word(const char *w)
{
	unsigned h = hash(w);
	pthread_mutex_lock(&lock);
	struct entry *e;
	for (e = table[h]; e; e = e->next)
		if (!strcmp(e->word, w))
			break;
	if (!e) {
		e = calloc(1, sizeof(*e));
		strcpy(e->word, w);
		e->next = table[h];
		table[h] = e;
	}
	e->count++;
	pthread_mutex_unlock(&lock);
}

static void *worker(void *arg)
{
	unsigned seed = (unsigned)(size_t)arg;
	char w[16];
	for (int i = 0; i < NWORDS; i++) {
		seed = seed * 1103515245u + 12345u;
		make_word(seed >> 8, w);
		count_word(w);
	}
	return NULL;
}

static void merge(struct entry **a, struct entry **tmp, int lo, int mid, int hi)
{
	int i = lo, j = mid, k = lo;
	while (i < mid && j < hi)
		tmp[k++] = a[i]->count >= a[j]->count ? a[i++] : a[j++];
	while (i < mid)
		tmp[k++] = a[i++];
	while (j < hi)
		tmp[k++] = a[j++];
	memcpy(a + lo, tmp + lo, (size_t)(hi - lo) * sizeof(*a));
}

static void sort(struct entry **a, struct entry **tmp, int lo, int hi)
{
	if (hi - lo < 2)
		return;
	int mid = (lo + hi) / 2;
	sort(a, tmp, lo, mid);
	sort(a, tmp, mid, hi);
	merge(a, tmp, lo, mid, hi);
}

static int collect(struct entry **out)
{
	int n = 0;
	for (int i = 0; i < TABLE; i++)
		for (struct entry *e = table[i]; e; e = e->next)
			out[n++] = e;
	return n;
}

int main(void)
{
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, (void *)(size_t)(i + 1));
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	static struct entry *all[4 * NWORDS], *tmp[4 * NWORDS];
	int n = collect(all);
	sort(all, tmp, 0, n);
	printf("%d distinct words; most frequent:", n);
	for (int i = 0; i < 3 && i < n; i++)
		printf(" %s (%d)", all[i]->word, all[i]->count);
	printf("\n");
	return 0;
}
