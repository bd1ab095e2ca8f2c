// SPDX-License-Identifier: MIT
/*
 * record --inject's throw= (doc/inject.md): the C++ half, built as
 * libcalltrace-throw.so beside libcalltrace.so (which is libc only) and
 * dlopened by runtime/inject.c only when a rule throws.
 *
 * The entry trampoline (arch/x86_64/tramp.S) jumps here in place of the
 * traced function's body, with the stack as at that function's entry: a
 * tail call of it, so that the exception leaves from its caller's call
 * site, which the unwinder finds through this function's own unwind
 * information (the runtime's _Unwind_RaiseException gives hooked frames
 * their return addresses back first, runtime/wrap.c).
 */
#include <new>
#include <stdexcept>

extern "C" __attribute__((visibility("default"), noreturn)) void
calltrace_inject_throw(long kind, const char *msg)
{
	if (kind == 1)
		throw std::bad_alloc();
	throw std::runtime_error(msg ? msg : "");
}
