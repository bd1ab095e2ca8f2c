/* SPDX-License-Identifier: MIT */
/* Programs of another architecture, under qemu-user (emulate.h). */
#include "emulate.h"

#include <elf.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "modfind.h"

#if defined(__x86_64__)
#define HOST_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define HOST_MACHINE EM_AARCH64
#else
#define HOST_MACHINE EM_NONE
#endif

int ct_elf_machine(const char *path)
{
	unsigned char h[EI_NIDENT + 4];
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -1;
	struct stat st;
	ssize_t n = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? read(fd, h, sizeof(h)) : -1;
	close(fd);
	if (n != (ssize_t)sizeof(h) || memcmp(h, ELFMAG, SELFMAG) != 0)
		return -1;
	/* e_machine follows e_type, in the file's byte order */
	if (h[EI_DATA] == ELFDATA2MSB)
		return h[EI_NIDENT + 2] << 8 | h[EI_NIDENT + 3];
	return h[EI_NIDENT + 3] << 8 | h[EI_NIDENT + 2];
}

const char *ct_elf_machine_name(int machine, char *buf, size_t len)
{
	switch (machine) {
	case EM_X86_64:
		return "x86-64";
	case EM_AARCH64:
		return "aarch64";
	case EM_386:
		return "i386";
	case EM_ARM:
		return "32-bit Arm";
	case EM_RISCV:
		return "RISC-V";
	default:
		snprintf(buf, len, "ELF machine %d", machine);
		return buf;
	}
}

/* path, if it names a readable file */
static bool have(char *out, size_t len, const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || access(path, R_OK) != 0)
		return false;
	if (!realpath(path, out))
		snprintf(out, len, "%s", path);
	return true;
}

int ct_emu_prepare(const char *name, const char *exe, const char *libopt, const char *bindir,
		   struct ct_emu *e, struct ct_error *err)
{
	char b1[32], b2[32];
	memset(e, 0, sizeof(*e));
	int m = ct_elf_machine(exe);
	if (m < 0 || m == HOST_MACHINE)
		return 0; /* (a script, or what this machine runs itself) */
	const char *host = ct_elf_machine_name(HOST_MACHINE, b1, sizeof(b1));
	const char *what = ct_elf_machine_name(m, b2, sizeof(b2));
	/* "an x86-64", "an aarch64", "a RISC-V" */
	const char *an = strchr("aeiouxAEIOUX", what[0]) ? "an" : "a";
	if (m != EM_AARCH64)
		return ct_set_err_rc(err, 2, "%s is %s %s program: record runs %s programs here%s",
				     name, an, what, host,
				     HOST_MACHINE == EM_AARCH64
					     ? ""
					     : ", and aarch64 ones under qemu-aarch64");
	e->arch = "aarch64";
	/* the runtime for it */
	if (libopt) {
		int lm = ct_elf_machine(libopt);
		if (lm != EM_AARCH64)
			return ct_set_err_rc(err, 2,
					     "%s is an aarch64 program, but the runtime %s is %s%s "
					     "(make aarch64 builds build-aarch64/libcalltrace.so)",
					     name, libopt, lm < 0 ? "no ELF file" : "built for ",
					     lm < 0 ? "" : ct_elf_machine_name(lm, b2, sizeof(b2)));
		if (!have(e->runtime, sizeof(e->runtime), libopt))
			return ct_set_err_rc(err, 2, "%s: cannot read the runtime", libopt);
	} else {
		static const char *const rel[] = {"aarch64/libcalltrace.so",
						  "../build-aarch64/libcalltrace.so",
						  "../lib/calltrace/aarch64/libcalltrace.so"};
		bool found = false;
		for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]) && !found && bindir; i++) {
			char p[PATH_MAX + 64];
			snprintf(p, sizeof(p), "%s/%s", bindir, rel[i]);
			found = ct_elf_machine(p) == EM_AARCH64 &&
				have(e->runtime, sizeof(e->runtime), p);
		}
		if (!found)
			return ct_set_err_rc(err, 2,
					     "%s is an aarch64 program, and the aarch64 runtime is "
					     "not built (make aarch64, or --lib PATH)",
					     name);
	}
	/* the emulator */
	const char *q = getenv("CALLTRACE_QEMU");
	if (!q || !*q)
		q = "qemu-aarch64";
	char *qp = ct_find_program(q);
	if (!qp || access(qp, X_OK) != 0) {
		free(qp);
		return ct_set_err_rc(err, 2,
				     "%s is an aarch64 program: record runs it under %s, which is "
				     "not installed (apt-get install qemu-user, or set "
				     "CALLTRACE_QEMU)",
				     name, q);
	}
	snprintf(e->qemu, sizeof(e->qemu), "%s", qp);
	free(qp);
	const char *root = getenv("CALLTRACE_QEMU_LD_PREFIX");
	if (root && *root)
		snprintf(e->sysroot, sizeof(e->sysroot), "%s", root);
	else if (access("/usr/aarch64-linux-gnu/lib", X_OK) == 0)
		snprintf(e->sysroot, sizeof(e->sysroot), "/usr/aarch64-linux-gnu");
	e->on = true;
	return 0;
}
