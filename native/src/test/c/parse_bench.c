/*
 * PROTOTYPE (measured, not kept): ns per frame of rxBurst0's parse() over every frame of
 * the readable test traces, frames at 128 bytes of headroom as in an mbuf, 5 rounds.
 *
 *   jh=$(dirname $(dirname $(readlink -f $(which javac))))
 *   gcc -O2 -I$jh/include -I$jh/include/linux -Inative/target/native-headers -Inative/src/main/c \
 *     $(pkg-config --cflags libdpdk) native/src/test/c/parse_bench.c -o /tmp/parse_bench \
 *     $(pkg-config --libs libdpdk) -lpcap
 *   /tmp/parse_bench $(ls engine/src/test/resources/traces/*.pcap* | grep -v -e malformed-header -e without)
 */
#include "transnfv_dpdk.c"

#include <pcap/pcap.h>
#include <stdio.h>

#define MAX_FRAMES 40000

int main(int argc, char **argv)
{
	static uint8_t *frames[MAX_FRAMES];
	static uint32_t lengths[MAX_FRAMES];
	int n = 0;
	char err[PCAP_ERRBUF_SIZE];
	for (int a = 1; a < argc; a++) {
		pcap_t *p = pcap_open_offline(argv[a], err);
		if (p == NULL)
			continue;
		struct pcap_pkthdr *h;
		const u_char *data;
		while (n < MAX_FRAMES && pcap_next_ex(p, &h, &data) == 1) {
			frames[n] = aligned_alloc(64, (h->caplen + 128 + 63) & ~63u);
			memcpy(frames[n] + 128, data, h->caplen);
			lengths[n++] = h->caplen;
		}
		pcap_close(p);
	}
	uint8_t d[TNFV_RX_DESCRIPTOR_BYTES];
	uint64_t counters[TNFV_C_COUNT] = {0};
	uint64_t sink = 0;
	const int reps = 2000;
	for (int round = 0; round < 5; round++) {
		struct timespec t0, t1;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		for (int r = 0; r < reps; r++)
			for (int i = 0; i < n; i++) {
				parse(frames[i] + 128, lengths[i], d, counters);
				sink += d[TNFV_RX_MALFORMED] + *(uint16_t *)(d + TNFV_RX_L4_OFFSET);
			}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		const double ns = (double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec);
		printf("round %d: %d frames x %d: %.2f ns/frame\n", round, n, reps, ns / ((double)n * reps));
	}
	return sink == 42 ? 1 : 0;
}
