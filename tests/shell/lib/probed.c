/* A program for the probe-* tests: greet() and use() are probed by
 * name, line and argument (who, times, p->y, arr[2], p->name); main calls
 * them with values the tests know, then libc's inet_pton(). Compiled -g -O0. */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

struct pt {
	int x;
	long y;
	char name[8];
};

int greet(const char *who, int times)
{
	int i, sum = 0;

	for (i = 0; i < times; i++)
		sum += (int)strlen(who);
	return sum;
}

long use(struct pt *p, int arr[4])
{
	return p->x + p->y + arr[2];
}

int main(void)
{
	struct pt p = { 1, 2, "abc" };
	int a[4] = { 1, 2, 3, 4 };
	struct in_addr addr;
	long r = greet("world", 3);

	r += greet("prf", 5);
	r += use(&p, a);
	r += inet_pton(AF_INET, "127.0.0.1", &addr);
	printf("%ld\n", r);
	return 0;
}
