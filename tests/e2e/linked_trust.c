/* linked_trust [euid | ARGS...]: a few traced calls; "euid" prints the
 * effective user id (a set-user-ID run: was it?) */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ct_test.h"

NOINLINE static int work(int n)
{
	sink += n;
	return n;
}

int main(int argc, char **argv)
{
	for (int i = 0; i < 3; i++)
		work(i);
	if (argc > 1 && !strcmp(argv[1], "euid"))
		printf("euid %d\n", (int)geteuid());
	else
		printf("done\n");
	return 0;
}
