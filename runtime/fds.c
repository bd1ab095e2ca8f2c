/* SPDX-License-Identifier: MIT */
/*
 * The descriptors the runtime keeps open across the program's own code (its
 * .proc file, the linked-in writer's .ev files).  The program may close
 * them (closefrom, close_range, a loop over every number) and get the same
 * numbers back for its own files; the runtime must then never write there.
 * So a held descriptor lives at a high number (F_DUPFD_CLOEXEC from
 * CT_FD_BASE, where the program's own rarely go), its identity (st_dev,
 * st_ino) is remembered, and every write first checks with fstat that the
 * number still names that file.  If it does not, the file is opened again
 * by its path (O_NOFOLLOW, and it must be the same file); if that fails, the
 * runtime stops writing there and says so once.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

#define CT_FD_BASE 700

/* move fd to a high number (close-on-exec); the lowest free one from
 * CT_FD_BASE, or below it when the descriptor limit is lower */
static int move_high(int fd)
{
	struct rlimit rl;
	int base = CT_FD_BASE;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur <= (rlim_t)base + 16)
		base = rl.rlim_cur > 64 ? (int)(rl.rlim_cur / 2) : 3;
	int h = fcntl(fd, F_DUPFD_CLOEXEC, base);
	if (h < 0)
		return fd;
	close(fd);
	return h;
}

int ct_fd_move_high(int fd)
{
	return move_high(fd);
}

bool ct_fd_hold(struct ct_held_fd *h, int fd)
{
	struct stat st;
	h->fd = -1;
	if (fd < 0)
		return false;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return false;
	}
	h->dev = st.st_dev;
	h->ino = st.st_ino;
	h->gone = false;
	__atomic_store_n(&h->fd, move_high(fd), __ATOMIC_RELEASE);
	return true;
}

static bool same_file(int fd, const struct ct_held_fd *h)
{
	struct stat st;
	return fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_dev == h->dev &&
	       st.st_ino == h->ino;
}

int ct_fd_get(struct ct_held_fd *h, const char *path)
{
	int fd = __atomic_load_n(&h->fd, __ATOMIC_ACQUIRE);
	if (fd < 0)
		return -1;
	if (likely(same_file(fd, h)))
		return fd;
	/* not ours any more: the program closed it (and perhaps opened a file
	 * of its own under that number), which it may; do not close it */
	int n = open(path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
	int e = n < 0 ? errno : 0;
	if (n >= 0 && !same_file(n, h)) {
		close(n);
		n = -1;
	}
	if (n < 0) {
		if (__atomic_compare_exchange_n(&h->fd, &fd, -1, false, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE) &&
		    !h->gone) {
			h->gone = true;
			ct_log("the program closed calltrace's descriptor of %s and it cannot be "
			       "opened again (%s): nothing more is written to it",
			       path, e ? strerror(e) : "a different file is there");
		}
		return -1;
	}
	n = move_high(n);
	if (!__atomic_compare_exchange_n(&h->fd, &fd, n, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		/* another thread opened it again first */
		close(n);
		return __atomic_load_n(&h->fd, __ATOMIC_ACQUIRE);
	}
	return n;
}

void ct_fd_close(struct ct_held_fd *h)
{
	int fd = __atomic_exchange_n(&h->fd, -1, __ATOMIC_ACQ_REL);
	/* close it only if it still is ours: a number the program reused is
	 * the program's */
	if (fd >= 0 && same_file(fd, h))
		close(fd);
}

void ct_fd_forget(struct ct_held_fd *h)
{
	h->fd = -1;
}
