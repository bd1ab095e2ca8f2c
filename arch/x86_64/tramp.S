/* SPDX-License-Identifier: MIT */
/*
 * Entry and return trampolines of the register-seeing front ends:
 *
 *   __fentry__      gcc/clang -pg -mfentry: called first thing in a function,
 *                   before its prologue; 8(%rsp) is the function's return
 *                   address slot
 *   mcount          -pg: called after the prologue (push %rbp; mov %rsp,%rbp);
 *                   8(%rbp) of the caller is its return address slot
 *   ct_patch_tramp  the target of the calls that runtime/patch.c writes over
 *                   -fpatchable-function-entry nops (same frame as __fentry__)
 *   ct_return_tramp the return address given to hooked frames
 *
 * The entry trampolines save every argument register (struct ct_arch_regs
 * for the capture code, plus %rax, %r10 and the full xmm0-7, which the C
 * code or libc might clobber) and call runtime/hook.c.  They are not called
 * with the ABI's stack alignment (mcount after a push is 8 off), so they
 * align the stack themselves, with %rbp as their frame pointer; the CFI
 * follows every step, so debuggers and unwinders can walk through them.
 */
#include "keep.inc"
#include "regs.h"
#include "runtime/offsets.h"

/* struct ct_arch_regs, then %rax, %r10, a pad and the full xmm0-7 */
#define E_RAX CT_REGS_SIZE
#define E_R10 (CT_REGS_SIZE + 8)
#define E_XMM 144
#define E_SIZE (E_XMM + 8 * 16)

/* ENTER records: bits 2..23 hold the clock delta; EXIT: bits 2..31 */
#define ENTER_DELTA_LIMIT (1 << 22)
#define EXIT_DELTA_LIMIT (1 << 30)

	.text

/* %r11 = the offset of ct_self from the thread pointer (initial-exec TLS:
 * the dynamic linker put it in the GOT); its fields are %fs:FIELD(%r11) */
.macro THREAD_SELF
	movq ct_self@GOTTPOFF(%rip), %r11
.endm

/* xmm0-7: the low 8 bytes of each to \off(%rsp) (SAVE_XMM8 and RESTORE_XMM8,
 * all 16 bytes: keep.inc) */
.macro LOW_XMM8 off
	movq %xmm0, \off + 0(%rsp)
	movq %xmm1, \off + 8(%rsp)
	movq %xmm2, \off + 16(%rsp)
	movq %xmm3, \off + 24(%rsp)
	movq %xmm4, \off + 32(%rsp)
	movq %xmm5, \off + 40(%rsp)
	movq %xmm6, \off + 48(%rsp)
	movq %xmm7, \off + 56(%rsp)
.endm

/* the entry fast path's five saved registers, with their CFI */
.macro FP_PUSH
	push %rax
	.cfi_adjust_cfa_offset 8
	push %rcx
	.cfi_adjust_cfa_offset 8
	push %rdx
	.cfi_adjust_cfa_offset 8
	push %rsi
	.cfi_adjust_cfa_offset 8
	push %r8
	.cfi_adjust_cfa_offset 8
.endm
.macro FP_POP
	pop %r8
	.cfi_adjust_cfa_offset -8
	pop %rsi
	.cfi_adjust_cfa_offset -8
	pop %rdx
	.cfi_adjust_cfa_offset -8
	pop %rcx
	.cfi_adjust_cfa_offset -8
	pop %rax
	.cfi_adjust_cfa_offset -8
.endm

/* ct_buffer_full(&ct_self) from a fast path (%r11 the thread), every
 * register a traced function may be using kept (keep.inc) */
.macro CALL_BUFFER_FULL
	KEEP_SAVE
	mov %fs:0, %rdi
	add %r11, %rdi
	call ct_buffer_full
	KEEP_RESTORE
.endm

/* record --plugin's calltrace_plugin_enter_fn, at %rax, called with the
 * function (%r8) from a fast path, the thread's plug_in set meanwhile (the
 * calls it makes are not traced), every register kept (keep.inc) */
.macro CALL_PLUG_FN
	KEEP_SAVE
	movl $1, %fs:CT_T_PLUG_IN(%r11)
	mov %r8, %rdi
	call *%rax
	mov KEEP_R11(%rbp), %r11	/* the thread, as pushed */
	movl $0, %fs:CT_T_PLUG_IN(%r11)
	KEEP_RESTORE
.endm

/*
 * \out = &ct_args_fastv[spec of the function at \fn], or a jump to \none
 * when no spec names it (runtime/args.c's hash: keys 0 empty, 1 deleted).
 * The thread keeps the last answer (args_fn: the address | ct_args_gen_key,
 * which a change of modules moves on; args_af).  Uses %rdx and \out; %r11
 * is the thread.
 */
.macro ARGS_LOOKUP fn, out, none
	mov ct_args_gen_key(%rip), %rdx
	or \fn, %rdx
	cmp %fs:CT_T_ARGS_FN(%r11), %rdx
	jne 6f
	mov %fs:CT_T_ARGS_AF(%r11), \out
	test \out, \out
	jz \none
	jmp 5f
6:	mov %rdx, %fs:CT_T_ARGS_FN(%r11)
	movq $0, %fs:CT_T_ARGS_AF(%r11)
	movabs $CT_AF_HASH_MUL, \out
	imul \fn, \out
	shr $20, \out
	and ct_args_mask(%rip), \out
	mov ct_args_keys(%rip), %rdx
7:	cmp \fn, (%rdx,\out,8)
	je 8f
	cmpq $0, (%rdx,\out,8)
	je \none
	inc \out
	and ct_args_mask(%rip), \out
	jmp 7b
8:	mov ct_args_vals(%rip), %rdx
	mov (%rdx,\out,4), %edx
	shl $CT_AF_SHIFT, %rdx
	mov ct_args_fastv(%rip), \out
	add %rdx, \out
	mov \out, %fs:CT_T_ARGS_AF(%r11)
5:
.endm

/*
 * One captured value: the next byte of a recipe (struct ct_args_fast) at
 * \at; its slot indexes the u64 array at \arr; the value goes to (%rdi),
 * which moves on by its 4 or 8 bytes.  0xff: jump to \end.  Uses %rax and
 * %rcx.
 */
.macro CAPTURE_ONE at, arr, end
	movzbl \at, %eax
	cmp $0xff, %eax
	je \end
	mov %eax, %ecx
	and $0x7f, %ecx
	mov \arr(%rsp,%rcx,8), %rcx
	mov %ecx, (%rdi)
	add $4, %rdi
	test $0x80, %al
	jnz 9f
	shr $32, %rcx
	mov %ecx, (%rdi)
	add $4, %rdi
9:
.endm

/*
 * An entry trampoline.  Its fast path, in assembly, does what the fast path
 * of ct_hook_enter (runtime/hook.c) does, for the common case: not inside
 * another hook, the shadow stack set up and not full, a new frame deeper
 * than the last, the clock delta and the address's high bits as last time,
 * the TSC as the clock.  It saves only the five registers it uses besides
 * %r11, and captures arguments itself when a spec asks for a few register
 * values (else through ct_args_entry).  Anything else goes to the general
 * path, which saves every argument register and calls ct_hook_enter.  With
 * record --callsite a second instance of it, which writes the call site
 * with the ENTER, takes its place (tramp_callsite.inc).
 *
 * Both paths leave by `ret`.  (Leaving by `jmp` to the return address, so
 * that the predictor's entry for this call is the one the hooked function's
 * own `ret` into the return trampoline consumes, and the trampoline's `ret`
 * to the caller is foreseen, was measured slower on this project's machines:
 * 36.5 against 32.9 ns per call on fib; doc/performance.md.)
 *
 * Fast-path frame: 5 pushes, so the call site (our return address) is at
 * 40(%rsp) and, for __fentry__ and patched entries, the traced function's
 * return-address slot at 48(%rsp).  mcount finds the slot at 8(%rbp): %rbp
 * is the traced function's frame pointer, set up just before the call.
 */
#define FP_SITE 40
#define FP_SLOT 48

/*
 * In an entry trampoline's fast path, after the ENTER (busy held, %r8 the
 * function, %r11 the thread, the fast path's five registers pushed):
 * \func(&ct_self, fn, struct ct_arch_regs *), every register a traced
 * function may be using kept, and its answer ORed into the new frame's
 * flags (ct_args_entry: CT_ARGS_WANT_RET, or nothing).  The values of
 * %rsi, %rdx, %rcx and %r8 in the struct are the ones the fast path
 * pushed.  %r8 is the function again after it.
 */
.macro CALL_WITH_REGS kind, func
	push %rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
	mov %rsp, %rbp
	.cfi_def_cfa_register %rbp
	push %rdi
	push %r9
	push %r10
	push %r11
	push %r8
	and $-16, %rsp
	sub $(128 + 128), %rsp		/* struct ct_arch_regs, then xmm0-7 */
	SAVE_XMM8 128
	LOW_XMM8 CT_REGS_FP
	mov %rdi, CT_REGS_GP + 0(%rsp)
	mov 16(%rbp), %rax		/* %rsi as pushed */
	mov %rax, CT_REGS_GP + 8(%rsp)
	mov 24(%rbp), %rax		/* %rdx */
	mov %rax, CT_REGS_GP + 16(%rsp)
	mov 32(%rbp), %rax		/* %rcx */
	mov %rax, CT_REGS_GP + 24(%rsp)
	mov 8(%rbp), %rax		/* %r8 */
	mov %rax, CT_REGS_GP + 32(%rsp)
	mov %r9, CT_REGS_GP + 40(%rsp)
	.if \kind == 1
	mov 0(%rbp), %rax		/* the traced function's %rbp */
	lea 8(%rax), %rax
	.else
	lea 8 + FP_SLOT(%rbp), %rax
	.endif
	mov %rax, CT_REGS_SP(%rsp)
	mov %r8, %rsi			/* fn */
	mov %fs:0, %rdi
	add %r11, %rdi
	mov %rsp, %rdx
	call \func
	mov -32(%rbp), %r11
	mov -40(%rbp), %r8
	mov %fs:CT_T_DEPTH(%r11), %ecx
	shl $CT_FRAME_SHIFT, %rcx
	add %fs:CT_T_STK(%r11), %rcx
	mov %eax, %eax
	or %rax, CT_FR_FLAGS - 32(%rcx)
	RESTORE_XMM8 128
	mov -8(%rbp), %rdi
	mov -16(%rbp), %r9
	mov -24(%rbp), %r10
	mov %rbp, %rsp
	.cfi_def_cfa_register %rsp
	pop %rbp
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbp
.endm


/* leaving an entry trampoline: `ret` to the traced function, or for a
 * library call (kind 3) a jump to the target its stub pushed, with %rsp
 * at the caller's return-address slot again (%r11 is free at a call) */
.macro LEAVE_TRAMP kind
	.if \kind == 3
	pop %r11
	.cfi_adjust_cfa_offset -8
	jmp *%r11
	.else
	ret
	.endif
.endm

/*
 * The entry fast paths' checks, the plain one's and --callsite's
 * (tramp_callsite.inc): the thread (%r11), busy taken, %rsi = &stk[depth]
 * (the new frame) and %r8 = the function's address; any case they do not
 * take jumps to the general path (.Lunbusy_\name, .Lpop_\name).  The
 * traced function's return-address slot is at \so(\sb).
 */
.macro ENTRY_CHECKS name, kind, sb, so
	THREAD_SELF
	/* busy: a handler that lands between the test and the increment
	 * runs its hooks to the end (or never comes back) before we go on */
	cmpl $0, %fs:CT_T_BUSY(%r11)
	jne .Lpop_\name
	incl %fs:CT_T_BUSY(%r11)
	mov %fs:CT_T_DEPTH(%r11), %ecx
	test %ecx, %ecx
	jz .Lunbusy_\name
	cmp %fs:CT_T_CAP(%r11), %ecx
	jae .Lunbusy_\name
	cmpq $0, %fs:CT_T_HOOK(%r11)
	je .Lunbusy_\name
	shl $CT_FRAME_SHIFT, %rcx
	mov %rcx, %rsi
	add %fs:CT_T_STK(%r11), %rsi	/* %rsi = &stk[depth], the new frame */
	lea \so+8(\sb), %rcx		/* the new frame's CFA */
	cmp %rcx, CT_FR_CFA - 32(%rsi)	/* deeper than the last frame? */
	ja 4f
	/* as deep: still a call inside the last frame if that one is not
	 * hooked (ret 0): a -finstrument-functions frame's CFA is its
	 * hook's, the function's stack pointer at its calls, so a library
	 * call it makes has that CFA too (hook.c resync_entry agrees) */
	jne .Lunbusy_\name
	cmpq $0, CT_FR_RET - 32(%rsi)
	jne .Lunbusy_\name
4:
	lea ct_return_tramp(%rip), %rax
	cmp %rax, \so(\sb)		/* a tail call: the general path */
	je .Lunbusy_\name
	/* the function's address, %r8, from the call site */
	mov FP_SITE(%rsp), %rdx
	.if \kind == 3
	/* a library call (runtime/libcall.c): the slot's stub pushed the
	 * real target, which is the function */
	mov %rdx, %r8
	.elseif \kind == 1
	/* mcount: the call site's cache entry of hook.c */
	mov %rdx, %rax
	shr $12, %rax
	xor %rdx, %rax
	and $(CT_MC_CACHE - 1), %eax
	lea ct_mc_cache(%rip), %r8
	mov (%r8,%rax,8), %rax
	test %rax, %rax
	jz .Lunbusy_\name
	mov %rax, %r8
	shr $16, %r8
	mov %rdx, %rcx
	shl $16, %rcx
	shr $16, %rcx			/* the site's low 48 bits */
	cmp %rcx, %r8
	jne .Lunbusy_\name
	movzwl %ax, %eax
	mov %rdx, %r8
	sub %rax, %r8
	.else
	lea -5(%rdx), %r8
	.if \kind == 0
	/* gcc calls __fentry__ through the GOT: ff 15 (or 67 e8, relaxed) */
	movzwl -6(%rdx), %eax
	cmp $0x15ff, %eax
	je 1f
	cmp $0xe867, %eax
	jne 2f
1:	lea -6(%rdx), %r8
2:
	.endif
	.if \kind == 0
	/* a nested function's `push %r10` before the call (unless that would
	 * read the page before): its slot is a word further up, which the
	 * general path knows */
	test $0xffe, %r8d
	jz 3f
	cmpw $0x5241, -2(%r8)
	je .Lunbusy_\name
	.endif
	/* an endbr64 before the call, unless that would read the page before */
	test $0xffc, %r8d
	jz 3f
	cmpl $0xfa1e0ff3, -4(%r8)
	jne 3f
	sub $4, %r8
3:
	.endif
.endm

/* the byte of ct_sel_bloom of the function in %r8 compared with 0 (the
 * flags: ZF clear when it is set).  Uses %rcx and %rdx */
.macro SEL_BYTE
	movabs $CT_SEL_HASH_MUL, %rcx
	imul %r8, %rcx
	shr $CT_SEL_BLOOM_SHIFT, %rcx
	lea ct_sel_bloom(%rip), %rdx
	cmpb $0, (%rdx,%rcx)
.endm

/*
 * After the checks, with %r8 the function: a function an injection rule may
 * select (its byte of ct_sel_bloom set) goes to the general path, where
 * ct_hook_enter asks the rules (and a plugin, which ct_plug_fast leaves to
 * it then; a plugin alone is asked after the ENTER, .Lmore_); any other
 * back to \back.  Uses %rcx and %rdx (%rax: the clock, for mcount).
 */
.macro SEL_BLOOM name, back
	SEL_BYTE
	jne .Lunbusy_\name
	jmp \back
.endm

/*
 * The address's high bits (%rax) changed (a library call after the
 * program's own, or the other way round): their HI record here, then back
 * to \back for the ENTER after it (the buffers' slack takes both before the
 * limit check); a path that then goes the general way finds them set.
 * Uses %rcx and %rdx.
 */
.macro HI_RECORD back
	mov $8, %edx
	xadd %rdx, %fs:CT_T_CUR(%r11)
	mov %rax, %rcx
	shl $32, %rcx
	or $CT_EXT_HI_WORD, %rcx
	mov %rcx, (%rdx)
	mov %rax, %fs:CT_T_HI(%r11)
	jmp \back
.endm

#include "tramp_callsite.inc"
#include "tramp_held.inc"

/* the traced function's return-address slot is at \so(\sb) */
.macro ENTRY_TRAMP name, kind, global, sb, so
	.if \global
	.globl \name
	.type \name, @function
	.else
	.globl \name
	.hidden \name
	.type \name, @function
	.endif
	.p2align 4
\name:
	.cfi_startproc
	.if \kind != 3			/* library calls are not hooked with --count */
	cmpb $0, ct_count_on(%rip)	/* record --count: count.S */
	jne ct_count_\name
	.endif
	FP_PUSH
	cmpb $0, ct_enter_fast(%rip)	/* the TSC is the clock (no --callsite) */
	je .Lcs_\name			/* --callsite's, or the general path */
	ENTRY_CHECKS \name, \kind, \sb, \so
	.if \kind != 1
	cmpb $0, ct_inj_on(%rip)	/* --inject: its functions' bytes (addrtab.c) */
	jne .Linj_\name
.Linj_back_\name:
	.endif
	mov %r8, %rax
	shr $40, %rax
	cmp %fs:CT_T_HI(%r11), %rax
	jne .Lhi_\name
.Lhi_done_\name:
	rdtsc
	shl $32, %rdx
	or %rdx, %rax			/* %rax = now */
	.if \kind == 1
	/* mcount: --inject's test after the clock read, where the chain from
	 * the call site's cache entry to the byte costs the calls it does
	 * not select nothing (2.5 ns a call before it); a selected call then
	 * reads the clock again on the general path */
	cmpb $0, ct_inj_on(%rip)
	jne .Linj_\name
.Linj_back_\name:
	.endif
	mov %rax, %rdx
	sub %fs:CT_T_LAST(%r11), %rdx	/* the delta (huge if the clock went back) */
	cmp $ENTER_DELTA_LIMIT, %rdx
	jae .Lunbusy_\name
	shl $2, %rdx
	mov %r8, %rcx
	shl $24, %rcx
	or %rdx, %rcx
	or $2, %rcx			/* CT_REC_ENTER */
	mov $8, %edx
	xadd %rdx, %fs:CT_T_CUR(%r11)	/* reserve: one instruction */
	mov %rcx, (%rdx)
.Lcs_entered_\name:			/* --callsite's joins: tramp_callsite.inc */
	mov %rax, %fs:CT_T_LAST(%r11)
	mov %r8, CT_FR_FN(%rsi)
	lea \so+8(\sb), %rcx
	mov %rcx, CT_FR_CFA(%rsi)
	mov \so(\sb), %rcx
	mov %rcx, CT_FR_RET(%rsi)
	mov $CT_FR_HOOKED_BIT, %ecx
	mov %rcx, CT_FR_FLAGS(%rsi)
	incl %fs:CT_T_DEPTH(%r11)
	lea ct_return_tramp(%rip), %rcx
	mov %rcx, \so(\sb)		/* the function now returns to us */
	add $8, %rdx
	cmp %fs:CT_T_LIMIT(%r11), %rdx
	ja .Lfull_\name
.Lafter_full_\name:
	cmpb $0, ct_enter_more(%rip)	/* arguments, or a plugin's callback */
	jne .Lmore_\name
.Ldone_\name:
	.cfi_remember_state
	decl %fs:CT_T_BUSY(%r11)
	FP_POP
	LEAVE_TRAMP \kind
	.cfi_restore_state
.Lfull_\name:
	CALL_BUFFER_FULL
	jmp .Lafter_full_\name
.Linj_\name:
	SEL_BLOOM \name, .Linj_back_\name
.Lmore_\name:
	/* record --plugin: its calltrace_plugin_enter_fn on every function
	 * (plugin.c: set only then; a function --inject selects went the
	 * general way), straight; or the callback of a function whose byte
	 * of ct_sel_bloom is set (%r8 is still the function) */
	mov ct_plug_fn_cb(%rip), %rax
	test %rax, %rax
	jz .Lplug_sel_\name
	CALL_PLUG_FN
	cmpb $0, ct_args_enabled(%rip)
	jne .Lcap_\name
	jmp .Ldone_\name
.Lplug_sel_\name:
	cmpb $0, ct_plug_fast(%rip)
	je .Lcap_\name
	SEL_BYTE
	jne .Lplug_\name
.Lplug_back_\name:
	cmpb $0, ct_args_enabled(%rip)
	jne .Lcap_\name
	jmp .Ldone_\name
.Lplug_\name:
	/* ct_plug_tramp_enter(&ct_self, fn, struct ct_arch_regs *), which
	 * marks the frame when the plugin wants its exit */
	CALL_WITH_REGS \kind, ct_plug_tramp_enter
	jmp .Lplug_back_\name
.Lhi_\name:
	HI_RECORD .Lhi_done_\name
.Lcap_\name:
	/* argument capture, the common case in assembly (runtime/args.h:
	 * struct ct_args_fast); %r8 is still the function */
	ARGS_LOOKUP %r8, %rsi, .Ldone_\name
	testb $CT_AF_ENT_C, CT_AF_FLAGS(%rsi)
	jnz .Largs_\name
	/* whether the return value is wanted, into the new frame's flags */
	movzbl CT_AF_FLAGS(%rsi), %eax
	and $CT_AF_WANT_RET, %eax
	mov %fs:CT_T_DEPTH(%r11), %ecx
	shl $CT_FRAME_SHIFT, %rcx
	add %fs:CT_T_STK(%r11), %rcx
	or %rax, CT_FR_FLAGS - 32(%rcx)
	mov CT_AF_ENT_HDR(%rsi), %edx
	test %edx, %edx
	jz .Ldone_\name
	/* struct ct_arch_regs's first 14 words in the red zone (which signal
	 * handlers leave alone): rdi, rsi, rdx, rcx, r8, r9 (four of them as
	 * pushed), xmm0-7 */
	push %rdi
	.cfi_adjust_cfa_offset 8
#define ARR -112
	mov %rdi, ARR + 0(%rsp)
	mov 16(%rsp), %rax		/* %rsi */
	mov %rax, ARR + 8(%rsp)
	mov 24(%rsp), %rax		/* %rdx */
	mov %rax, ARR + 16(%rsp)
	mov 32(%rsp), %rax		/* %rcx */
	mov %rax, ARR + 24(%rsp)
	mov 8(%rsp), %rax		/* %r8 */
	mov %rax, ARR + 32(%rsp)
	mov %r9, ARR + 40(%rsp)
	testb $CT_AF_ENT_XMM, CT_AF_FLAGS(%rsi)
	jz 11f
	LOW_XMM8 (ARR+48)
11:	/* reserve the record: 4 bytes per payload word and the header */
	mov %edx, %eax
	shr $8, %eax
	movzbl %al, %eax
	lea 4(,%rax,4), %r8
	xadd %r8, %fs:CT_T_CUR(%r11)	/* reserve: one instruction */
	lea 4(%r8), %rdi
	CAPTURE_ONE CT_AF_ENT + 0(%rsi), ARR, 10f
	CAPTURE_ONE CT_AF_ENT + 1(%rsi), ARR, 10f
	CAPTURE_ONE CT_AF_ENT + 2(%rsi), ARR, 10f
	CAPTURE_ONE CT_AF_ENT + 3(%rsi), ARR, 10f
#undef ARR
10:	mov CT_AF_ENT_HDR(%rsi), %edx
	mov %edx, (%r8)			/* the header last */
	cmp %fs:CT_T_LIMIT(%r11), %rdi	/* %rdi: the record's end (before the
					 * pop gives the program's %rdi back) */
	pop %rdi
	.cfi_adjust_cfa_offset -8
	jbe .Ldone_\name
	CALL_BUFFER_FULL
	jmp .Ldone_\name
.Largs_\name:
	/* argument capture: ct_args_entry(&ct_self, fn, struct ct_arch_regs *)
	 * after the ENTER record, as ct_hook_enter does; its answer (whether
	 * the return value is wanted) goes into the new frame's flags */
	CALL_WITH_REGS \kind, ct_args_entry
	jmp .Ldone_\name
	CALLSITE_ENTRY \name, \kind, \sb, \so
	HELD_ENTER \name, \kind, \sb, \so
.Lunbusy_\name:
	decl %fs:CT_T_BUSY(%r11)
.Lpop_\name:
	FP_POP
	/* the general path */
	push %rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
	mov %rsp, %rbp
	.cfi_def_cfa_register %rbp
	and $-16, %rsp
	sub $E_SIZE, %rsp
	mov %rdi, CT_REGS_GP + 0(%rsp)
	mov %rsi, CT_REGS_GP + 8(%rsp)
	mov %rdx, CT_REGS_GP + 16(%rsp)
	mov %rcx, CT_REGS_GP + 24(%rsp)
	mov %r8, CT_REGS_GP + 32(%rsp)
	mov %r9, CT_REGS_GP + 40(%rsp)
	mov %rax, E_RAX(%rsp)
	mov %r10, E_R10(%rsp)
	LOW_XMM8 CT_REGS_FP
	SAVE_XMM8 E_XMM
	.if \kind == 1
	/* mcount: the traced function's frame pointer is our saved %rbp;
	 * its entry stack pointer (the slot) is 8 above it */
	mov 0(%rbp), %rax
	add $8, %rax
	.else
	/* our return address is at 8(%rbp), the traced function's slot
	 * right above it */
	lea 16(%rbp), %rax
	.endif
	mov %rax, CT_REGS_SP(%rsp)
	mov %rsp, %rdi
	mov 8(%rbp), %rsi
	mov $\kind, %edx
	call ct_hook_enter
	mov %eax, %r11d			/* 1: skip the body (record --inject) */
	mov CT_REGS_GP + 0(%rsp), %rdi
	mov CT_REGS_GP + 8(%rsp), %rsi
	mov CT_REGS_GP + 16(%rsp), %rdx
	mov CT_REGS_GP + 24(%rsp), %rcx
	mov CT_REGS_GP + 32(%rsp), %r8
	mov CT_REGS_GP + 40(%rsp), %r9
	mov E_RAX(%rsp), %rax
	mov E_R10(%rsp), %r10
	RESTORE_XMM8 E_XMM
	mov %rbp, %rsp
	.cfi_def_cfa_register %rsp
	pop %rbp
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbp
	.if \kind != 1
	test %r11d, %r11d
	jnz .Lskip_\name
	.endif
	.cfi_remember_state
	LEAVE_TRAMP \kind
	.cfi_restore_state
	.if \kind != 1
.Lskip_\name:
	/* record --inject's return=V: the function's body is skipped.  Our
	 * return address (or a library call's target) goes, and the `ret`
	 * takes the function's own return-address slot: the return
	 * trampoline, which ends the call, or the caller.  %rax holds V.
	 * throw= (2): a tail call of ct_inj_thrower from the function's entry
	 * instead, %rdi and %rsi its arguments. */
	add $8, %rsp
	cmp $2, %r11d
	je .Lthrow_\name
	ret
.Lthrow_\name:
	jmp *ct_inj_thrower(%rip)
	.endif
	.cfi_endproc
	.size \name, .-\name
.endm

	ENTRY_TRAMP __fentry__, 0, 1, %rsp, FP_SLOT
	ENTRY_TRAMP mcount, 1, 1, %rbp, 8
	ENTRY_TRAMP ct_patch_tramp, 2, 0, %rsp, FP_SLOT
	/* library calls: jumped to by a GOT slot's stub after it pushed the
	 * target (runtime/libcall.c), so the frame is __fentry__'s */
	ENTRY_TRAMP ct_libcall_tramp, 3, 0, %rsp, FP_SLOT

	.globl _mcount
	.set _mcount, mcount

/*
 * The return trampoline.  A hooked function's `ret` lands here with %rsp one
 * above its return-address slot and the return value in %rax/%rdx/%xmm0/
 * %xmm1 (and st0/st1, which nothing here touches).
 *
 * Its fast path, in assembly, is ct_hook_return's fast path: not inside
 * another hook, the top frame of the shadow stack is this one (same CFA),
 * hooked, the TSC as the clock and a delta that fits; a return value that
 * is wanted is captured here too (.Lret_cap) or through ct_hook_ret_args.
 * It uses only registers a returning function leaves free (%rcx, %rsi,
 * %rdi, %r8-%r11), writes the EXIT record, pops the frame, and returns to
 * the original address through the slot: `push; ret`.
 *
 * The general path calls ct_hook_return (struct ct_arch_retregs *, slot + 8),
 * which writes the EXIT record and gives the original return address back;
 * it goes into the slot again, and a plain `ret` uses it.
 *
 * Until then the return address of this frame is only on the shadow stack,
 * which no unwinder can read: the CFI says "undefined" (an unwinder stops
 * here cleanly).  The nop before the label is inside the same FDE, because
 * unwinders look up a return address minus 1.
 */
	.globl ct_return_tramp
	.hidden ct_return_tramp
	.type ct_return_tramp, @function
	.p2align 4
	.cfi_startproc
	.cfi_def_cfa %rsp, 0
	.cfi_undefined %rip
	nop
ct_return_tramp:
	/* the TSC is the clock, and no plugin wants the returns: the same
	 * byte as the entries' (for the other modes it clears, filters and
	 * --count, no frame would take the fast path anyway) */
	cmpb $0, ct_hook_fast(%rip)
	je .Lret_held			/* (-t alone: tramp_held.inc) */
	THREAD_SELF
	cmpl $0, %fs:CT_T_BUSY(%r11)	/* busy, as on entry */
	jne .Lret_slow
	incl %fs:CT_T_BUSY(%r11)
	mov %fs:CT_T_DEPTH(%r11), %ecx
	test %ecx, %ecx
	jz .Lret_unbusy
	shl $CT_FRAME_SHIFT, %rcx
	add %fs:CT_T_STK(%r11), %rcx	/* %rcx = &stk[depth]: the top frame ends below */
	cmp %rsp, CT_FR_CFA - 32(%rcx)
	jne .Lret_unbusy
	mov CT_FR_FLAGS - 32(%rcx), %r10
	and $-2, %r10			/* but CT_ARGS_WANT_RET */
	mov $CT_FR_HOOKED_BIT, %esi
	cmp %rsi, %r10
	jne .Lret_unbusy
	mov CT_FR_RET - 32(%rcx), %rsi	/* the original return address */
	test %rsi, %rsi
	jz .Lret_unbusy
	lea ct_return_tramp(%rip), %rdi
	cmp %rdi, %rsi			/* a tail-called frame: the general path */
	je .Lret_unbusy
	mov %rax, %r8
	mov %rdx, %r9
	rdtsc
	shl $32, %rdx
	or %rdx, %rax			/* %rax = now */
	mov %rax, %rdi
	sub %fs:CT_T_LAST(%r11), %rdi
	cmp $EXIT_DELTA_LIMIT, %rdi
	jae .Lret_restore
	testb $CT_AF_WANT_RET, CT_FR_FLAGS - 32(%rcx)
	jnz .Lret_cap
.Lret_write:
	shl $2, %edi
	or $1, %edi			/* CT_REC_EXIT */
	mov $4, %edx
	xadd %rdx, %fs:CT_T_CUR(%r11)	/* reserve: one instruction */
	mov %edi, (%rdx)
	mov %rax, %fs:CT_T_LAST(%r11)
	decl %fs:CT_T_DEPTH(%r11)
	movq $0, CT_FR_RET - 32(%rcx)	/* off the shadow stack: ret 0 */
	add $4, %rdx
	cmp %fs:CT_T_LIMIT(%r11), %rdx
	ja .Lret_full
.Lret_done:
	decl %fs:CT_T_BUSY(%r11)
	mov %r8, %rax
	mov %r9, %rdx
	push %rsi
	.cfi_adjust_cfa_offset 8
	.cfi_offset %rip, -8
	ret
	.cfi_adjust_cfa_offset -8
	.cfi_undefined %rip
.Lret_full:
	push %rsi
	.cfi_adjust_cfa_offset 8
	.cfi_offset %rip, -8
	CALL_BUFFER_FULL
	pop %rsi
	.cfi_adjust_cfa_offset -8
	.cfi_undefined %rip
	jmp .Lret_done
.Lret_cap:
	/* the return value is wanted: the common case in assembly (runtime/
	 * args.h: struct ct_args_fast), else .Lret_args */
	mov CT_FR_FN - 32(%rcx), %r10
	cmpb $0, ct_args_enabled(%rip)
	je .Lret_args
	ARGS_LOOKUP %r10, %rdi, .Lret_args
	mov %rdi, %rdx
	testb $CT_AF_RET_C, CT_AF_FLAGS(%rdx)
	jnz .Lret_args
	mov CT_AF_RET_HDR(%rdx), %edi
	test %edi, %edi
	jz .Lret_args
	/* off the shadow stack (ret 0: a buffer switch in --drop mode leaves
	 * it alone) before the RETVAL record, as ct_hook_return does */
	movq $0, CT_FR_RET - 32(%rcx)
	movq $0, CT_FR_FLAGS - 32(%rcx)
	/* struct ct_arch_retregs in the red zone, below it the clock */
	mov %rax, -40(%rsp)
	mov %r8, -32(%rsp)
	mov %r9, -24(%rsp)
	movq %xmm0, -16(%rsp)
	movq %xmm1, -8(%rsp)
	mov %edi, %eax
	shr $8, %eax
	movzbl %al, %eax
	lea 4(,%rax,4), %r10
	xadd %r10, %fs:CT_T_CUR(%r11)	/* reserve: one instruction */
	lea 4(%r10), %rdi
	CAPTURE_ONE CT_AF_RET + 0(%rdx), -32, 11f
	CAPTURE_ONE CT_AF_RET + 1(%rdx), -32, 11f
11:	mov CT_AF_RET_HDR(%rdx), %eax
	mov %eax, (%r10)		/* the header last */
	mov -40(%rsp), %r10		/* now */
	cmp %fs:CT_T_LIMIT(%r11), %rdi	/* %rdi: the record's end */
	jbe 12f
	push %rsi
	.cfi_adjust_cfa_offset 8
	.cfi_offset %rip, -8
	CALL_BUFFER_FULL
	pop %rsi
	.cfi_adjust_cfa_offset -8
	.cfi_undefined %rip
12:	/* then the EXIT record, from a delta taken now (a switch may have
	 * moved the base) */
	mov %r10, %rax
	mov %fs:CT_T_DEPTH(%r11), %ecx
	shl $CT_FRAME_SHIFT, %rcx
	add %fs:CT_T_STK(%r11), %rcx
	mov %rax, %rdi
	sub %fs:CT_T_LAST(%r11), %rdi
	cmp $EXIT_DELTA_LIMIT, %rdi
	jb .Lret_write
	xor %r10d, %r10d		/* no capture: ct_put_exit only */
.Lret_args:
	/* the general case of a return whose value is wanted (%r10 = the
	 * function, or 0 when the RETVAL record is written): the frame comes
	 * off the shadow stack (ret 0) and ct_hook_ret_args(&ct_self, fn,
	 * struct ct_arch_retregs *, now, depth - 1) writes the RETVAL record,
	 * then the EXIT record */
	movq $0, CT_FR_RET - 32(%rcx)
	movq $0, CT_FR_FLAGS - 32(%rcx)
	push %rsi			/* the slot holds the return address again */
	.cfi_adjust_cfa_offset 8
	.cfi_offset %rip, -8
	push %rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
	mov %rsp, %rbp
	.cfi_def_cfa_register %rbp
	push %r8
	push %r9
	push %r11
	and $-16, %rsp
	sub $64, %rsp			/* struct ct_arch_retregs, then xmm0-1 */
	mov %r8, CT_RETREGS_RET(%rsp)
	mov %r9, CT_RETREGS_RET2(%rsp)
	movq %xmm0, CT_RETREGS_FRET(%rsp)
	movq %xmm1, CT_RETREGS_FRET2(%rsp)
	movaps %xmm0, 32(%rsp)
	movaps %xmm1, 48(%rsp)
	mov %fs:CT_T_DEPTH(%r11), %r8d
	dec %r8d
	mov %rax, %rcx			/* now */
	mov %rsp, %rdx
	mov %r10, %rsi			/* fn */
	mov %fs:0, %rdi
	add %r11, %rdi
	call ct_hook_ret_args
	movaps 32(%rsp), %xmm0
	movaps 48(%rsp), %xmm1
	mov -8(%rbp), %r8
	mov -16(%rbp), %r9
	mov -24(%rbp), %r11
	mov %rbp, %rsp
	.cfi_def_cfa_register %rsp
	pop %rbp
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbp
	decl %fs:CT_T_BUSY(%r11)
	mov %r8, %rax
	mov %r9, %rdx
	ret
	.cfi_adjust_cfa_offset -8
	.cfi_undefined %rip
	RET_HELD
.Lret_restore:
	mov %r8, %rax
	mov %r9, %rdx
.Lret_unbusy:
	decl %fs:CT_T_BUSY(%r11)
.Lret_slow:
	/* the general path */
	sub $8, %rsp                /* %rsp = the slot */
	.cfi_adjust_cfa_offset 8
	push %rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
	mov %rsp, %rbp
	.cfi_def_cfa_register %rbp
	and $-16, %rsp
	sub $64, %rsp
	mov %rax, CT_RETREGS_RET(%rsp)
	mov %rdx, CT_RETREGS_RET2(%rsp)
	movq %xmm0, CT_RETREGS_FRET(%rsp)
	movq %xmm1, CT_RETREGS_FRET2(%rsp)
	movaps %xmm0, 32(%rsp)
	movaps %xmm1, 48(%rsp)
	mov %rsp, %rdi
	lea 16(%rbp), %rsi
	call ct_hook_return
	mov %rax, 8(%rbp)
	.cfi_offset %rip, -8
	mov CT_RETREGS_RET(%rsp), %rax
	mov CT_RETREGS_RET2(%rsp), %rdx
	movaps 32(%rsp), %xmm0
	movaps 48(%rsp), %xmm1
	mov %rbp, %rsp
	.cfi_def_cfa_register %rsp
	pop %rbp
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbp
	ret
	.cfi_endproc
	.size ct_return_tramp, .-ct_return_tramp

	.section .note.GNU-stack,"",@progbits
