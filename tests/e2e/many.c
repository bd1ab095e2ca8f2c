/* 100 functions, some straddling page boundaries: see entries.sh */
#include <stdio.h>

#include "ct_test.h"

NOINLINE void f0(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 0;
	if (x > 0)
		sink += x * 3 + 0;
}

NOINLINE void f1(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 1;
	if (x > 0)
		sink += x * 3 + 1;
}

NOINLINE void f2(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 2;
	if (x > 0)
		sink += x * 3 + 2;
}

NOINLINE void f3(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 3;
	if (x > 0)
		sink += x * 3 + 3;
}

NOINLINE void f4(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 4;
	if (x > 0)
		sink += x * 3 + 4;
}

NOINLINE void f5(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 5;
	if (x > 0)
		sink += x * 3 + 5;
}

NOINLINE void f6(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 6;
	if (x > 0)
		sink += x * 3 + 6;
}

NOINLINE void f7(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 7;
	if (x > 0)
		sink += x * 3 + 7;
}

NOINLINE void f8(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 8;
	if (x > 0)
		sink += x * 3 + 8;
}

NOINLINE void f9(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 9;
	if (x > 0)
		sink += x * 3 + 9;
}

NOINLINE void f10(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 10;
	if (x > 0)
		sink += x * 3 + 10;
}

NOINLINE void f11(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 11;
	if (x > 0)
		sink += x * 3 + 11;
}

NOINLINE void f12(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 12;
	if (x > 0)
		sink += x * 3 + 12;
}

NOINLINE void f13(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 13;
	if (x > 0)
		sink += x * 3 + 13;
}

NOINLINE void f14(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 14;
	if (x > 0)
		sink += x * 3 + 14;
}

NOINLINE void f15(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 15;
	if (x > 0)
		sink += x * 3 + 15;
}

NOINLINE void f16(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 16;
	if (x > 0)
		sink += x * 3 + 16;
}

NOINLINE void f17(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 17;
	if (x > 0)
		sink += x * 3 + 17;
}

NOINLINE void f18(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 18;
	if (x > 0)
		sink += x * 3 + 18;
}

NOINLINE void f19(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 19;
	if (x > 0)
		sink += x * 3 + 19;
}

NOINLINE void f20(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 20;
	if (x > 0)
		sink += x * 3 + 20;
}

NOINLINE void f21(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 21;
	if (x > 0)
		sink += x * 3 + 21;
}

NOINLINE void f22(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 22;
	if (x > 0)
		sink += x * 3 + 22;
}

NOINLINE void f23(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 23;
	if (x > 0)
		sink += x * 3 + 23;
}

NOINLINE void f24(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 24;
	if (x > 0)
		sink += x * 3 + 24;
}

NOINLINE void f25(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 25;
	if (x > 0)
		sink += x * 3 + 25;
}

NOINLINE void f26(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 26;
	if (x > 0)
		sink += x * 3 + 26;
}

NOINLINE void f27(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 27;
	if (x > 0)
		sink += x * 3 + 27;
}

NOINLINE void f28(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 28;
	if (x > 0)
		sink += x * 3 + 28;
}

NOINLINE void f29(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 29;
	if (x > 0)
		sink += x * 3 + 29;
}

NOINLINE void f30(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 30;
	if (x > 0)
		sink += x * 3 + 30;
}

NOINLINE void f31(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 31;
	if (x > 0)
		sink += x * 3 + 31;
}

NOINLINE void f32(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 32;
	if (x > 0)
		sink += x * 3 + 32;
}

NOINLINE void f33(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 33;
	if (x > 0)
		sink += x * 3 + 33;
}

NOINLINE void f34(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 34;
	if (x > 0)
		sink += x * 3 + 34;
}

NOINLINE void f35(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 35;
	if (x > 0)
		sink += x * 3 + 35;
}

NOINLINE void f36(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 36;
	if (x > 0)
		sink += x * 3 + 36;
}

NOINLINE void f37(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 37;
	if (x > 0)
		sink += x * 3 + 37;
}

NOINLINE void f38(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 38;
	if (x > 0)
		sink += x * 3 + 38;
}

NOINLINE void f39(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 39;
	if (x > 0)
		sink += x * 3 + 39;
}

NOINLINE void f40(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 40;
	if (x > 0)
		sink += x * 3 + 40;
}

NOINLINE void f41(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 41;
	if (x > 0)
		sink += x * 3 + 41;
}

NOINLINE void f42(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 42;
	if (x > 0)
		sink += x * 3 + 42;
}

NOINLINE void f43(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 43;
	if (x > 0)
		sink += x * 3 + 43;
}

NOINLINE void f44(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 44;
	if (x > 0)
		sink += x * 3 + 44;
}

NOINLINE void f45(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 45;
	if (x > 0)
		sink += x * 3 + 45;
}

NOINLINE void f46(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 46;
	if (x > 0)
		sink += x * 3 + 46;
}

NOINLINE void f47(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 47;
	if (x > 0)
		sink += x * 3 + 47;
}

NOINLINE void f48(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 48;
	if (x > 0)
		sink += x * 3 + 48;
}

NOINLINE void f49(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 49;
	if (x > 0)
		sink += x * 3 + 49;
}

NOINLINE void f50(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 50;
	if (x > 0)
		sink += x * 3 + 50;
}

NOINLINE void f51(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 51;
	if (x > 0)
		sink += x * 3 + 51;
}

NOINLINE void f52(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 52;
	if (x > 0)
		sink += x * 3 + 52;
}

NOINLINE void f53(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 53;
	if (x > 0)
		sink += x * 3 + 53;
}

NOINLINE void f54(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 54;
	if (x > 0)
		sink += x * 3 + 54;
}

NOINLINE void f55(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 55;
	if (x > 0)
		sink += x * 3 + 55;
}

NOINLINE void f56(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 56;
	if (x > 0)
		sink += x * 3 + 56;
}

NOINLINE void f57(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 57;
	if (x > 0)
		sink += x * 3 + 57;
}

NOINLINE void f58(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 58;
	if (x > 0)
		sink += x * 3 + 58;
}

NOINLINE void f59(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 59;
	if (x > 0)
		sink += x * 3 + 59;
}

NOINLINE void f60(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 60;
	if (x > 0)
		sink += x * 3 + 60;
}

NOINLINE void f61(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 61;
	if (x > 0)
		sink += x * 3 + 61;
}

NOINLINE void f62(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 62;
	if (x > 0)
		sink += x * 3 + 62;
}

NOINLINE void f63(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 63;
	if (x > 0)
		sink += x * 3 + 63;
}

NOINLINE void f64(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 64;
	if (x > 0)
		sink += x * 3 + 64;
}

NOINLINE void f65(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 65;
	if (x > 0)
		sink += x * 3 + 65;
}

NOINLINE void f66(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 66;
	if (x > 0)
		sink += x * 3 + 66;
}

NOINLINE void f67(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 67;
	if (x > 0)
		sink += x * 3 + 67;
}

NOINLINE void f68(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 68;
	if (x > 0)
		sink += x * 3 + 68;
}

NOINLINE void f69(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 69;
	if (x > 0)
		sink += x * 3 + 69;
}

NOINLINE void f70(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 70;
	if (x > 0)
		sink += x * 3 + 70;
}

NOINLINE void f71(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 71;
	if (x > 0)
		sink += x * 3 + 71;
}

NOINLINE void f72(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 72;
	if (x > 0)
		sink += x * 3 + 72;
}

NOINLINE void f73(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 73;
	if (x > 0)
		sink += x * 3 + 73;
}

NOINLINE void f74(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 74;
	if (x > 0)
		sink += x * 3 + 74;
}

NOINLINE void f75(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 75;
	if (x > 0)
		sink += x * 3 + 75;
}

NOINLINE void f76(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 76;
	if (x > 0)
		sink += x * 3 + 76;
}

NOINLINE void f77(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 77;
	if (x > 0)
		sink += x * 3 + 77;
}

NOINLINE void f78(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 78;
	if (x > 0)
		sink += x * 3 + 78;
}

NOINLINE void f79(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 79;
	if (x > 0)
		sink += x * 3 + 79;
}

NOINLINE void f80(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 80;
	if (x > 0)
		sink += x * 3 + 80;
}

NOINLINE void f81(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 81;
	if (x > 0)
		sink += x * 3 + 81;
}

NOINLINE void f82(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 82;
	if (x > 0)
		sink += x * 3 + 82;
}

NOINLINE void f83(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 83;
	if (x > 0)
		sink += x * 3 + 83;
}

NOINLINE void f84(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 84;
	if (x > 0)
		sink += x * 3 + 84;
}

NOINLINE void f85(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 85;
	if (x > 0)
		sink += x * 3 + 85;
}

NOINLINE void f86(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 86;
	if (x > 0)
		sink += x * 3 + 86;
}

NOINLINE void f87(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 87;
	if (x > 0)
		sink += x * 3 + 87;
}

NOINLINE void f88(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 88;
	if (x > 0)
		sink += x * 3 + 88;
}

NOINLINE void f89(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 89;
	if (x > 0)
		sink += x * 3 + 89;
}

NOINLINE void f90(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 90;
	if (x > 0)
		sink += x * 3 + 90;
}

NOINLINE void f91(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 91;
	if (x > 0)
		sink += x * 3 + 91;
}

NOINLINE void f92(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 92;
	if (x > 0)
		sink += x * 3 + 92;
}

NOINLINE void f93(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 93;
	if (x > 0)
		sink += x * 3 + 93;
}

NOINLINE void f94(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 94;
	if (x > 0)
		sink += x * 3 + 94;
}

NOINLINE void f95(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 95;
	if (x > 0)
		sink += x * 3 + 95;
}

NOINLINE void f96(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 96;
	if (x > 0)
		sink += x * 3 + 96;
}

NOINLINE void f97(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 97;
	if (x > 0)
		sink += x * 3 + 97;
}

NOINLINE void f98(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 98;
	if (x > 0)
		sink += x * 3 + 98;
}

NOINLINE void f99(int x)
{
	volatile char buf[64];
	buf[x & 63] = (char)x;
	sink += buf[(x + 1) & 63] + x * 99;
	if (x > 0)
		sink += x * 3 + 99;
}

int main(void)
{
	f0(1);
	f1(1);
	f2(1);
	f3(1);
	f4(1);
	f5(1);
	f6(1);
	f7(1);
	f8(1);
	f9(1);
	f10(1);
	f11(1);
	f12(1);
	f13(1);
	f14(1);
	f15(1);
	f16(1);
	f17(1);
	f18(1);
	f19(1);
	f20(1);
	f21(1);
	f22(1);
	f23(1);
	f24(1);
	f25(1);
	f26(1);
	f27(1);
	f28(1);
	f29(1);
	f30(1);
	f31(1);
	f32(1);
	f33(1);
	f34(1);
	f35(1);
	f36(1);
	f37(1);
	f38(1);
	f39(1);
	f40(1);
	f41(1);
	f42(1);
	f43(1);
	f44(1);
	f45(1);
	f46(1);
	f47(1);
	f48(1);
	f49(1);
	f50(1);
	f51(1);
	f52(1);
	f53(1);
	f54(1);
	f55(1);
	f56(1);
	f57(1);
	f58(1);
	f59(1);
	f60(1);
	f61(1);
	f62(1);
	f63(1);
	f64(1);
	f65(1);
	f66(1);
	f67(1);
	f68(1);
	f69(1);
	f70(1);
	f71(1);
	f72(1);
	f73(1);
	f74(1);
	f75(1);
	f76(1);
	f77(1);
	f78(1);
	f79(1);
	f80(1);
	f81(1);
	f82(1);
	f83(1);
	f84(1);
	f85(1);
	f86(1);
	f87(1);
	f88(1);
	f89(1);
	f90(1);
	f91(1);
	f92(1);
	f93(1);
	f94(1);
	f95(1);
	f96(1);
	f97(1);
	f98(1);
	f99(1);
	printf("%d\n", sink);
	return 0;
}
