/* SPDX-License-Identifier: MIT */
/* lib/record/emulate.c: the ELF machine of a file in either byte order,
 * and what record decides from it before it runs a program. */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "emulate.h"
#include "error.h"

static char dir[] = "/tmp/ct_test_emulate.XXXXXX";

/* an ELF header of class 64 in the given byte order and machine */
static const char *elf(const char *name, int data, unsigned machine)
{
	static char path[256];
	unsigned char h[64];
	memset(h, 0, sizeof(h));
	memcpy(h, ELFMAG, SELFMAG);
	h[EI_CLASS] = ELFCLASS64;
	h[EI_DATA] = (unsigned char)data;
	h[EI_VERSION] = EV_CURRENT;
	if (data == ELFDATA2MSB) {
		h[EI_NIDENT + 1] = ET_EXEC;
		h[EI_NIDENT + 2] = (unsigned char)(machine >> 8);
		h[EI_NIDENT + 3] = (unsigned char)machine;
	} else {
		h[EI_NIDENT] = ET_EXEC;
		h[EI_NIDENT + 2] = (unsigned char)machine;
		h[EI_NIDENT + 3] = (unsigned char)(machine >> 8);
	}
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	fwrite(h, 1, sizeof(h), f);
	fclose(f);
	return path;
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	CHECK(ct_elf_machine(elf("x86", ELFDATA2LSB, EM_X86_64)) == EM_X86_64, "x86-64");
	CHECK(ct_elf_machine(elf("a64", ELFDATA2LSB, EM_AARCH64)) == EM_AARCH64, "aarch64");
	CHECK(ct_elf_machine(elf("ppc", ELFDATA2MSB, EM_PPC64)) == EM_PPC64, "big-endian");
	CHECK(ct_elf_machine(elf("rv", ELFDATA2LSB, EM_RISCV)) == EM_RISCV, "RISC-V");
	CHECK(ct_elf_machine(dir) == -1, "a directory");
	CHECK(ct_elf_machine("/nonexistent") == -1, "missing");
	char sh[300];
	snprintf(sh, sizeof(sh), "%s/script", dir);
	FILE *f = fopen(sh, "w");
	fputs("#!/bin/sh\nexit 0\n", f);
	fclose(f);
	CHECK(ct_elf_machine(sh) == -1, "a script");
	char b[32];
	CHECK(!strcmp(ct_elf_machine_name(EM_AARCH64, b, sizeof(b)), "aarch64"), "name");
	CHECK(!strcmp(ct_elf_machine_name(4242, b, sizeof(b)), "ELF machine 4242"), "unknown name");

	struct ct_emu e;
	struct ct_error err;
	/* this machine's own program, and a script: nothing to do */
	CHECK(ct_emu_prepare("x", elf("x86", ELFDATA2LSB, EM_X86_64), NULL, dir, &e, &err) == 0 &&
		      !e.on,
	      "native");
	CHECK(ct_emu_prepare("s", sh, NULL, dir, &e, &err) == 0 && !e.on, "script");
	/* another architecture: 2, naming it */
	CHECK(ct_emu_prepare("./rv", elf("rv", ELFDATA2LSB, EM_RISCV), NULL, dir, &e, &err) == 2 &&
		      strstr(err.msg, "./rv is a RISC-V program"),
	      "riscv: %s", err.msg);
	/* aarch64: no runtime beside record (dir has none) */
	char *a64 = strdup(elf("a64", ELFDATA2LSB, EM_AARCH64));
	CHECK(ct_emu_prepare("./a64", a64, NULL, dir, &e, &err) == 2 &&
		      strstr(err.msg, "aarch64 runtime is not built"),
	      "no runtime: %s", err.msg);
	/* --lib of the wrong machine */
	CHECK(ct_emu_prepare("./a64", a64, elf("lib.so", ELFDATA2LSB, EM_X86_64), dir, &e, &err) ==
			      2 &&
		      strstr(err.msg, "built for x86-64"),
	      "wrong runtime: %s", err.msg);
	/* the runtime beside record, no emulator */
	char sub[300];
	snprintf(sub, sizeof(sub), "%s/aarch64", dir);
	mkdir(sub, 0700);
	elf("aarch64/libcalltrace.so", ELFDATA2LSB, EM_AARCH64);
	setenv("CALLTRACE_QEMU", "/nonexistent/qemu-aarch64", 1);
	CHECK(ct_emu_prepare("./a64", a64, NULL, dir, &e, &err) == 2 &&
		      strstr(err.msg, "/nonexistent/qemu-aarch64, which is not installed"),
	      "no emulator: %s", err.msg);
	/* an emulator (any executable file will do here) */
	setenv("CALLTRACE_QEMU", "/bin/true", 1);
	setenv("CALLTRACE_QEMU_LD_PREFIX", "/some/root", 1);
	CHECK(ct_emu_prepare("./a64", a64, NULL, dir, &e, &err) == 0 && e.on &&
		      strstr(e.runtime, "/aarch64/libcalltrace.so") &&
		      !strcmp(e.sysroot, "/some/root") && !strcmp(e.arch, "aarch64"),
	      "emulated: %s %s", e.runtime, e.sysroot);
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("could not remove %s\n", dir);
	free(a64);
	return check_done();
}
