// SPDX-License-Identifier: MIT
/*
 * record --inject's throw= (doc/inject.md): the C++ half, built as
 * libcalltrace-throw.so beside libcalltrace.so (which is libc only) and
 * dlopened by runtime/inject.c only when a rule throws.
 *
 * The entry trampoline (arch/x86_64/tramp.S; on aarch64 patch.S and
 * libcall.S) jumps here in place of the
 * traced function's body, with the stack as at that function's entry: a
 * tail call of it, so that the exception leaves from its caller's call
 * site, which the unwinder finds through this function's own unwind
 * information (the runtime's _Unwind_RaiseException gives hooked frames
 * their return addresses back first, runtime/wrap.c).
 *
 * The stack is then as the traced function got it, which the ABI's
 * 16-byte alignment need not hold for: gcc calls a function it knows
 * needs none (a leaf, -fipa-stack-alignment) without aligning, and
 * __cxa_throw's callees use aligned SSE stores.  So this function
 * realigns its own frame (force_align_arg_pointer: the CFI says how, and
 * the unwinder still finds the caller).
 */
#include <new>
#include <stdexcept>

/* aarch64 (arch/aarch64/patch.S, libcall.S): sp is 16-byte aligned at
 * every instruction that uses it, so nothing to realign */
#if defined(__x86_64__)
#define CT_REALIGN force_align_arg_pointer
#else
#define CT_REALIGN
#endif

extern "C" __attribute__((visibility("default"), noreturn, CT_REALIGN)) void
calltrace_inject_throw(long kind, const char *msg)
{
	if (kind == 1)
		throw std::bad_alloc();
	throw std::runtime_error(msg ? msg : "");
}
