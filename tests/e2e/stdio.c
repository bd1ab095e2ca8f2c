/*
 * The program's stdin, stdout, stderr, arguments, environment and exit
 * status must pass through record unchanged.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ct_test.h"

NOINLINE int transform(int c)
{
	sink += 1;
	return (c >= 'a' && c <= 'z') ? c - 'a' + 'A' : c;
}

NOINLINE void emit(int i)
{
	sink += 2;
	printf("line %d of stdout\n", i);
	if (i % 1000 == 0)
		fprintf(stderr, "line %d of stderr\n", i);
}

int main(int argc, char **argv)
{
	for (int i = 0; i < argc; i++)
		printf("argv[%d] = <%s>\n", i, i == 0 ? "prog" : argv[i]);
	const char *v = getenv("CT_TEST_VAR");
	printf("CT_TEST_VAR = <%s>\n", v ? v : "(unset)");
	int c;
	while ((c = fgetc(stdin)) != EOF)
		fputc(transform(c), stdout);
	for (int i = 1; i <= 5000; i++)
		emit(i);
	fprintf(stderr, "exiting with 3\n");
	return 3;
}
