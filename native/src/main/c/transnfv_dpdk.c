/*
 * TransNFV's DPDK front end: EAL start-up, port and mbuf pool set-up, and the two
 * per-burst crossings, rxBurst0 and txBurst0. Java: io.transnfv.dpdk.Dpdk.
 *
 * Threads: ealInit0 and the set-up calls run on whichever Java thread opens the port;
 * rxBurst0 on the receiver thread that owns the rx queues; txBurst0 on the thread that
 * applies verdicts (the engine's thread). Nothing here allocates per packet.
 *
 * Errors: every function returns a negative errno (DPDK's own codes included) that
 * Java turns into a DpdkException with rte_strerror's text, from strerror0.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jni.h>

#include <rte_byteorder.h>
#include <rte_dev.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>
#include <rte_mempool.h>
#include <rte_pause.h>

#include "transnfv_dpdk.h"
#include "io_transnfv_dpdk_Dpdk.h"

/* Tx attempts on a full queue before the rest of a burst is dropped (and counted). */
#define TNFV_TX_RETRIES (1 << 16)

struct tnfv_port {
	int set_up;
	uint16_t rx_queues;
	uint16_t tx_queues;
	struct rte_mempool *pool;
	unsigned rx_mbufs_per_packet;   /* mbufs the longest frame rx counts on may take */
	uintptr_t window_base;          /* lowest address of the pool's memory */
	size_t window_bytes;            /* span of the pool's memory chunks */
	uint8_t *rx_descriptors[TNFV_MAX_QUEUES];
	uint8_t *tx_descriptors;
	uint8_t *tx_staging;            /* TNFV_TX_STAGING_FRAMES frames Java copies out of the heap */
	uint64_t *counters;
	int timestamp_offset;           /* -1: the PMD stamps nothing */
	uint64_t timestamp_flag;
	uint64_t timestamp_unit_ns;
};

static struct tnfv_port ports[RTE_MAX_ETHPORTS];

static inline struct tnfv_port *port_of(jint port)
{
	if (port < 0 || port >= RTE_MAX_ETHPORTS || !ports[port].set_up)
		return NULL;
	return &ports[port];
}

/* ---- EAL ---------------------------------------------------------------------------- */

JNIEXPORT jint JNICALL Java_io_transnfv_dpdk_Dpdk_ealInit0(JNIEnv *env, jclass clazz, jobjectArray args)
{
	(void)clazz;
	const jsize n = (*env)->GetArrayLength(env, args);
	/* EAL keeps and permutes argv: give it copies it may keep for the process's life. */
	char **argv = calloc((size_t)n + 2, sizeof(char *));
	if (argv == NULL)
		return -ENOMEM;
	argv[0] = strdup("transnfv");
	for (jsize i = 0; i < n; i++) {
		jstring s = (jstring)(*env)->GetObjectArrayElement(env, args, i);
		const char *utf = (*env)->GetStringUTFChars(env, s, NULL);
		argv[i + 1] = strdup(utf);
		(*env)->ReleaseStringUTFChars(env, s, utf);
		(*env)->DeleteLocalRef(env, s);
	}
	/* EAL pins the calling thread to the main lcore's CPU; this is a JVM thread, so
	 * give it back the CPUs it had. */
	cpu_set_t saved;
	const int have_saved = sched_getaffinity(0, sizeof(saved), &saved) == 0;
	const int ret = rte_eal_init(n + 1, argv);
	const int err = rte_errno;
	if (have_saved)
		sched_setaffinity(0, sizeof(saved), &saved);
	return ret < 0 ? -(err != 0 ? err : EINVAL) : ret;
}

JNIEXPORT jstring JNICALL Java_io_transnfv_dpdk_Dpdk_strerror0(JNIEnv *env, jclass clazz, jint errnum)
{
	(void)clazz;
	return (*env)->NewStringUTF(env, rte_strerror(errnum));
}

JNIEXPORT jint JNICALL Java_io_transnfv_dpdk_Dpdk_portCount0(JNIEnv *env, jclass clazz)
{
	(void)env; (void)clazz;
	return rte_eth_dev_count_avail();
}

JNIEXPORT jint JNICALL Java_io_transnfv_dpdk_Dpdk_attach0(JNIEnv *env, jclass clazz, jstring devargs)
{
	(void)clazz;
	const char *args = (*env)->GetStringUTFChars(env, devargs, NULL);
	char name[RTE_DEV_NAME_MAX_LEN];
	snprintf(name, sizeof(name), "%s", args);
	char *comma = strchr(name, ',');
	if (comma != NULL)
		*comma = '\0';
	int ret = rte_dev_probe(args);
	(*env)->ReleaseStringUTFChars(env, devargs, args);
	if (ret < 0)
		return ret;
	uint16_t port;
	ret = rte_eth_dev_get_port_by_name(name, &port);
	return ret < 0 ? ret : port;
}

JNIEXPORT jint JNICALL Java_io_transnfv_dpdk_Dpdk_portByName0(JNIEnv *env, jclass clazz, jstring jname)
{
	(void)clazz;
	const char *name = (*env)->GetStringUTFChars(env, jname, NULL);
	uint16_t port;
	const int ret = rte_eth_dev_get_port_by_name(name, &port);
	(*env)->ReleaseStringUTFChars(env, jname, name);
	return ret < 0 ? ret : port;
}

JNIEXPORT jstring JNICALL Java_io_transnfv_dpdk_Dpdk_driverName0(JNIEnv *env, jclass clazz, jint port)
{
	(void)clazz;
	struct rte_eth_dev_info info;
	if (!rte_eth_dev_is_valid_port((uint16_t)port) || rte_eth_dev_info_get((uint16_t)port, &info) != 0)
		return NULL;
	return (*env)->NewStringUTF(env, info.driver_name);
}

/* ---- port set-up ---------------------------------------------------------------------- */

struct window { uintptr_t lo; uintptr_t hi; };

static void window_of_chunk(struct rte_mempool *mp, void *opaque, struct rte_mempool_memhdr *memhdr, unsigned idx)
{
	(void)mp; (void)idx;
	struct window *w = opaque;
	const uintptr_t lo = (uintptr_t)memhdr->addr;
	const uintptr_t hi = lo + memhdr->len;
	if (w->lo == 0 || lo < w->lo)
		w->lo = lo;
	if (hi > w->hi)
		w->hi = hi;
}

/* The descriptor, staging and counter buffers are not freed with the port: Java holds direct
 * buffers over them, and a thread of a run that failed may still write a verdict or read a
 * counter after the port is closed (an engine worker stuck in VNF code is abandoned, not
 * joined). They stay allocated for the process, a few hundred KiB per port, and a port set up
 * again under the same id takes them back. The mbuf pool is DPDK's memory and is freed. */
static void release(struct tnfv_port *p)
{
	if (p->pool != NULL)
		rte_mempool_free(p->pool);
	p->pool = NULL;
	p->set_up = 0;
}

static uint64_t timestamp_unit_ns(const char *driver)
{
	/* net_pcap stamps rx mbufs with the capture time in microseconds. */
	return strcmp(driver, "net_pcap") == 0 ? 1000 : 1;
}

JNIEXPORT jint JNICALL Java_io_transnfv_dpdk_Dpdk_portSetUp0(JNIEnv *env, jclass clazz, jint port,
	jint rx_queues, jint tx_queues, jint rx_descriptors, jint tx_descriptors, jint mbufs, jint data_room_bytes)
{
	(void)env; (void)clazz;
	if (port < 0 || port >= RTE_MAX_ETHPORTS || !rte_eth_dev_is_valid_port((uint16_t)port))
		return -ENODEV;
	if (rx_queues < 1 || rx_queues > TNFV_MAX_QUEUES || tx_queues < 1 || tx_queues > TNFV_MAX_QUEUES)
		return -EINVAL;
	if (mbufs < 1 || data_room_bytes < 1 || data_room_bytes > UINT16_MAX - RTE_PKTMBUF_HEADROOM)
		return -EINVAL;
	struct tnfv_port *p = &ports[port];
	if (p->set_up)
		return -EBUSY;
	/* keep the buffers an earlier set-up of this port allocated (see release) */
	uint8_t *kept_rx[TNFV_MAX_QUEUES];
	memcpy(kept_rx, p->rx_descriptors, sizeof(kept_rx));
	uint8_t *kept_tx = p->tx_descriptors, *kept_staging = p->tx_staging;
	uint64_t *kept_counters = p->counters;
	memset(p, 0, sizeof(*p));
	memcpy(p->rx_descriptors, kept_rx, sizeof(kept_rx));
	p->tx_descriptors = kept_tx;
	p->tx_staging = kept_staging;
	p->counters = kept_counters;
	const uint16_t pid = (uint16_t)port;

	struct rte_eth_dev_info info;
	int ret = rte_eth_dev_info_get(pid, &info);
	if (ret != 0)
		return ret;
	if (rx_queues > info.max_rx_queues || tx_queues > info.max_tx_queues)
		return -EINVAL;

	int socket = rte_eth_dev_socket_id(pid);
	if (socket < 0)
		socket = SOCKET_ID_ANY;
	char pool_name[RTE_MEMPOOL_NAMESIZE];
	snprintf(pool_name, sizeof(pool_name), "tnfv_pool_%d", port);
	/* No per-lcore cache: rxBurst0's rte_mempool_avail_count is then exact, and no mbuf
	 * sits in a cache the rx thread cannot reach. */
	p->pool = rte_pktmbuf_pool_create(pool_name, (unsigned)mbufs, 0, 0,
		(uint16_t)(data_room_bytes + RTE_PKTMBUF_HEADROOM), socket);
	if (p->pool == NULL)
		return -(rte_errno != 0 ? rte_errno : ENOMEM);

	struct window w = {0, 0};
	rte_mempool_mem_iter(p->pool, window_of_chunk, &w);
	if (w.hi - w.lo > (uintptr_t)INT32_MAX) {
		release(p);
		return -E2BIG;
	}
	p->window_base = w.lo;
	p->window_bytes = w.hi - w.lo;
	const uint32_t max_frame = info.max_rx_pktlen != 0 && info.max_rx_pktlen < TNFV_MAX_FRAME_BYTES
		? info.max_rx_pktlen : TNFV_MAX_FRAME_BYTES;
	p->rx_mbufs_per_packet = (max_frame + (uint32_t)data_room_bytes - 1) / (uint32_t)data_room_bytes;

	struct rte_eth_conf conf;
	memset(&conf, 0, sizeof(conf));
	ret = rte_eth_dev_configure(pid, (uint16_t)rx_queues, (uint16_t)tx_queues, &conf);
	if (ret != 0) {
		release(p);
		return ret;
	}
	uint16_t nb_rxd = (uint16_t)rx_descriptors;
	uint16_t nb_txd = (uint16_t)tx_descriptors;
	ret = rte_eth_dev_adjust_nb_rx_tx_desc(pid, &nb_rxd, &nb_txd);
	if (ret != 0) {
		release(p);
		return ret;
	}
	for (int q = 0; q < rx_queues; q++) {
		ret = rte_eth_rx_queue_setup(pid, (uint16_t)q, nb_rxd, (unsigned)socket == (unsigned)SOCKET_ID_ANY ? 0 : (unsigned)socket, NULL, p->pool);
		if (ret != 0) {
			release(p);
			return ret;
		}
		if (p->rx_descriptors[q] == NULL)
			p->rx_descriptors[q] = aligned_alloc(64, TNFV_MAX_BURST * TNFV_RX_DESCRIPTOR_BYTES);
	}
	for (int q = 0; q < tx_queues; q++) {
		ret = rte_eth_tx_queue_setup(pid, (uint16_t)q, nb_txd, (unsigned)socket == (unsigned)SOCKET_ID_ANY ? 0 : (unsigned)socket, NULL);
		if (ret != 0) {
			release(p);
			return ret;
		}
	}
	if (p->tx_descriptors == NULL)
		p->tx_descriptors = aligned_alloc(64, TNFV_MAX_BURST * TNFV_TX_DESCRIPTOR_BYTES);
	if (p->tx_staging == NULL)
		p->tx_staging = aligned_alloc(64, TNFV_TX_STAGING_FRAMES * TNFV_MAX_FRAME_BYTES);
	if (p->counters == NULL)
		p->counters = aligned_alloc(64, ((TNFV_C_COUNT * 8 + 63) / 64) * 64);
	if (p->tx_descriptors == NULL || p->tx_staging == NULL || p->counters == NULL) {
		release(p);
		return -ENOMEM;
	}
	memset(p->counters, 0, TNFV_C_COUNT * 8);
	for (int q = 0; q < rx_queues; q++) {
		if (p->rx_descriptors[q] == NULL) {
			release(p);
			return -ENOMEM;
		}
	}
	ret = rte_eth_dev_start(pid);
	if (ret != 0) {
		release(p);
		return ret;
	}
	rte_eth_promiscuous_enable(pid); /* not every PMD has it; forwarding does not need it */

	/* The PMD registers the rx timestamp field when it needs it: look it up afterwards. */
	p->timestamp_offset = rte_mbuf_dynfield_lookup(RTE_MBUF_DYNFIELD_TIMESTAMP_NAME, NULL);
	const int bit = rte_mbuf_dynflag_lookup(RTE_MBUF_DYNFLAG_RX_TIMESTAMP_NAME, NULL);
	p->timestamp_flag = bit < 0 ? 0 : (UINT64_C(1) << bit);
	if (bit < 0)
		p->timestamp_offset = -1;
	p->timestamp_unit_ns = timestamp_unit_ns(info.driver_name);
	p->rx_queues = (uint16_t)rx_queues;
	p->tx_queues = (uint16_t)tx_queues;
	p->set_up = 1;
	return 0;
}

JNIEXPORT jobject JNICALL Java_io_transnfv_dpdk_Dpdk_poolWindow0(JNIEnv *env, jclass clazz, jint port)
{
	(void)clazz;
	struct tnfv_port *p = port_of(port);
	return p == NULL ? NULL : (*env)->NewDirectByteBuffer(env, (void *)p->window_base, (jlong)p->window_bytes);
}

/* Where Java finds what it needs to walk a chain of mbufs through the pool window:
 * {window base, offsetof buf_addr, data_off, data_len, next}. */
JNIEXPORT jlongArray JNICALL Java_io_transnfv_dpdk_Dpdk_mbufLayout0(JNIEnv *env, jclass clazz, jint port)
{
	(void)clazz;
	struct tnfv_port *p = port_of(port);
	if (p == NULL)
		return NULL;
	const jlong layout[5] = {
		(jlong)p->window_base,
		(jlong)offsetof(struct rte_mbuf, buf_addr),
		(jlong)offsetof(struct rte_mbuf, data_off),
		(jlong)offsetof(struct rte_mbuf, data_len),
		(jlong)offsetof(struct rte_mbuf, next),
	};
	jlongArray out = (*env)->NewLongArray(env, 5);
	if (out != NULL)
		(*env)->SetLongArrayRegion(env, out, 0, 5, layout);
	return out;
}

JNIEXPORT jobject JNICALL Java_io_transnfv_dpdk_Dpdk_rxDescriptors0(JNIEnv *env, jclass clazz, jint port, jint queue)
{
	(void)clazz;
	struct tnfv_port *p = port_of(port);
	if (p == NULL || queue < 0 || queue >= p->rx_queues)
		return NULL;
	return (*env)->NewDirectByteBuffer(env, p->rx_descriptors[queue], TNFV_MAX_BURST * TNFV_RX_DESCRIPTOR_BYTES);
}

JNIEXPORT jobject JNICALL Java_io_transnfv_dpdk_Dpdk_txDescriptors0(JNIEnv *env, jclass clazz, jint port)
{
	(void)clazz;
	struct tnfv_port *p = port_of(port);
	return p == NULL ? NULL : (*env)->NewDirectByteBuffer(env, p->tx_descriptors, TNFV_MAX_BURST * TNFV_TX_DESCRIPTOR_BYTES);
}

JNIEXPORT jobject JNICALL Java_io_transnfv_dpdk_Dpdk_txStaging0(JNIEnv *env, jclass clazz, jint port)
{
	(void)clazz;
	struct tnfv_port *p = port_of(port);
	return p == NULL ? NULL : (*env)->NewDirectByteBuffer(env, p->tx_staging, TNFV_TX_STAGING_FRAMES * TNFV_MAX_FRAME_BYTES);
}

JNIEXPORT jobject JNICALL Java_io_transnfv_dpdk_Dpdk_counters0(JNIEnv *env, jclass clazz, jint port)
{
	(void)clazz;
	struct tnfv_port *p = port_of(port);
	return p == NULL ? NULL : (*env)->NewDirectByteBuffer(env, p->counters, TNFV_C_COUNT * 8);
}

JNIEXPORT jint JNICALL Java_io_transnfv_dpdk_Dpdk_ethStats0(JNIEnv *env, jclass clazz, jint port)
{
	(void)env; (void)clazz;
	struct tnfv_port *p = port_of(port);
	if (p == NULL)
		return -ENODEV;
	struct rte_eth_stats s;
	const int ret = rte_eth_stats_get((uint16_t)port, &s);
	if (ret != 0)
		return ret;
	p->counters[TNFV_C_ETH_IPACKETS] = s.ipackets;
	p->counters[TNFV_C_ETH_OPACKETS] = s.opackets;
	p->counters[TNFV_C_ETH_IMISSED] = s.imissed;
	p->counters[TNFV_C_ETH_IERRORS] = s.ierrors;
	p->counters[TNFV_C_ETH_OERRORS] = s.oerrors;
	p->counters[TNFV_C_ETH_RX_NOMBUF] = s.rx_nombuf;
	p->counters[TNFV_C_ETH_IBYTES] = s.ibytes;
	p->counters[TNFV_C_ETH_OBYTES] = s.obytes;
	return 0;
}

JNIEXPORT jint JNICALL Java_io_transnfv_dpdk_Dpdk_portClose0(JNIEnv *env, jclass clazz, jint port, jboolean detach)
{
	(void)env; (void)clazz;
	if (port < 0 || port >= RTE_MAX_ETHPORTS || !rte_eth_dev_is_valid_port((uint16_t)port))
		return -ENODEV;
	const uint16_t pid = (uint16_t)port;
	struct rte_eth_dev_info info;
	char name[RTE_DEV_NAME_MAX_LEN] = "";
	if (rte_eth_dev_info_get(pid, &info) == 0 && info.device != NULL)
		snprintf(name, sizeof(name), "%s", rte_dev_name(info.device));
	int ret = rte_eth_dev_stop(pid);
	const int closed = rte_eth_dev_close(pid); /* a pcap vdev flushes its tx file here */
	if (ret == 0)
		ret = closed;
	if (detach && name[0] != '\0') {
		const int removed = rte_eal_hotplug_remove("vdev", name);
		if (ret == 0)
			ret = removed;
	}
	if (ports[port].set_up || ports[port].pool != NULL)
		release(&ports[port]);
	return ret;
}

/* ---- the per-burst crossings -------------------------------------------------------------- */

/* A frame Java staged, copied into mbufs from the port's pool (a chain if it is longer than
 * one mbuf's room); NULL if the pool has too few free mbufs. Only held IP fragments take
 * this path: every other frame leaves in the mbuf it came in. */
static struct rte_mbuf *copy_frame(struct tnfv_port *p, const uint8_t *src, uint32_t length)
{
	struct rte_mbuf *head = rte_pktmbuf_alloc(p->pool);
	if (head == NULL)
		return NULL;
	struct rte_mbuf *seg = head;
	uint32_t done = 0;
	for (;;) {
		const uint32_t room = rte_pktmbuf_tailroom(seg);
		const uint32_t take = length - done < room ? length - done : room;
		memcpy(rte_pktmbuf_mtod(seg, uint8_t *), src + done, take);
		seg->data_len = (uint16_t)take;
		done += take;
		if (done == length)
			break;
		struct rte_mbuf *next = rte_pktmbuf_alloc(p->pool);
		if (next == NULL) {
			rte_pktmbuf_free(head);
			return NULL;
		}
		seg->next = next;
		head->nb_segs++;
		seg = next;
	}
	head->pkt_len = length;
	return head;
}

JNIEXPORT jint JNICALL Java_io_transnfv_dpdk_Dpdk_rxBurst0(JNIEnv *env, jclass clazz, jint port, jint queue, jint max)
{
	(void)env; (void)clazz;
	struct tnfv_port *p = port_of(port);
	if (p == NULL)
		return -ENODEV;
	if (queue < 0 || queue >= p->rx_queues || max < 0 || max > TNFV_MAX_BURST)
		return -EINVAL;
	struct rte_mbuf *pkts[TNFV_MAX_BURST];
	uint64_t *counters = p->counters;
	/* Back-pressure from the pool. A PMD may read a packet before it has its mbufs
	 * (net_pcap does: the packet is then lost, counted in rx_nombuf or ierrors), so ask
	 * only for as many packets as the free mbufs hold if each is as long as the longest
	 * frame counted on. The rest wait in the port, as when the ring is full; the engine's
	 * verdicts give the mbufs back. */
	const unsigned fit = rte_mempool_avail_count(p->pool) / p->rx_mbufs_per_packet;
	uint16_t want = (uint16_t)max;
	if (fit < want) {
		counters[TNFV_C_RX_POOL_LOW]++;
		if (fit == 0)
			return 0;
		want = (uint16_t)fit;
	}
	const uint16_t n = rte_eth_rx_burst((uint16_t)port, (uint16_t)queue, pkts, want);
	if (n == 0) {
		counters[TNFV_C_RX_EMPTY_POLLS]++;
		return 0;
	}
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	const uint64_t wall_ns = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
	uint8_t *d = p->rx_descriptors[queue];
	uint64_t bytes = 0;
	for (uint16_t i = 0; i < n; i++, d += TNFV_RX_DESCRIPTOR_BYTES) {
		struct rte_mbuf *m = pkts[i];
		const uint8_t *data = rte_pktmbuf_mtod(m, const uint8_t *);
		*(uint64_t *)(d + TNFV_RX_MBUF) = (uint64_t)(uintptr_t)m;
		*(uint64_t *)(d + TNFV_RX_DATA_OFFSET) = (uint64_t)((uintptr_t)data - p->window_base);
		uint32_t flags = 0;
		uint64_t ts = wall_ns;
		if (p->timestamp_offset >= 0 && (m->ol_flags & p->timestamp_flag) != 0) {
			ts = *RTE_MBUF_DYNFIELD(m, p->timestamp_offset, rte_mbuf_timestamp_t *) * p->timestamp_unit_ns;
			flags = TNFV_RX_FLAG_PMD_TIME;
		}
		*(uint64_t *)(d + TNFV_RX_TIMESTAMP_NS) = ts;
		*(uint32_t *)(d + TNFV_RX_DATA_LENGTH) = m->data_len;
		*(uint32_t *)(d + TNFV_RX_PACKET_LENGTH) = m->pkt_len;
		*(uint16_t *)(d + TNFV_RX_SEGMENTS) = m->nb_segs;
		*(uint32_t *)(d + TNFV_RX_RSS_HASH) = m->hash.rss;
		*(uint32_t *)(d + TNFV_RX_FLAGS) = flags;
		if (m->nb_segs > 1)
			counters[TNFV_C_RX_MULTI_SEGMENT]++;
		bytes += m->pkt_len;
	}
	counters[TNFV_C_RX_BURSTS]++;
	counters[TNFV_C_RX_PACKETS] += n;
	counters[TNFV_C_RX_BYTES] += bytes;
	return n;
}

JNIEXPORT jint JNICALL Java_io_transnfv_dpdk_Dpdk_txBurst0(JNIEnv *env, jclass clazz, jint port, jint queue, jint count)
{
	(void)env; (void)clazz;
	struct tnfv_port *p = port_of(port);
	if (p == NULL)
		return -ENODEV;
	if (queue < 0 || queue >= p->tx_queues || count < 0 || count > TNFV_MAX_BURST)
		return -EINVAL;
	struct rte_mbuf *out[TNFV_MAX_BURST];
	uint32_t lengths[TNFV_MAX_BURST];
	uint64_t *counters = p->counters;
	const uint8_t *d = p->tx_descriptors;
	uint16_t n = 0;
	for (jint i = 0; i < count; i++, d += TNFV_TX_DESCRIPTOR_BYTES) {
		const uint32_t action = *(const uint32_t *)(d + TNFV_TX_ACTION);
		const uint32_t length = *(const uint32_t *)(d + TNFV_TX_LENGTH);
		if (action == TNFV_ACTION_FORWARD_COPY) {
			const uint64_t offset = *(const uint64_t *)(d + TNFV_TX_MBUF);
			if (offset > (uint64_t)(TNFV_TX_STAGING_FRAMES - 1) * TNFV_MAX_FRAME_BYTES || length > TNFV_MAX_FRAME_BYTES || length == 0)
				return -EINVAL;
			struct rte_mbuf *copy = copy_frame(p, p->tx_staging + offset, length);
			if (copy == NULL) {
				counters[TNFV_C_DROP_NO_MBUF]++;
				continue;
			}
			counters[TNFV_C_TX_COPIED]++;
			lengths[n] = length;
			out[n++] = copy;
			continue;
		}
		struct rte_mbuf *m = (struct rte_mbuf *)(uintptr_t)*(const uint64_t *)(d + TNFV_TX_MBUF);
		if (action == TNFV_ACTION_RELEASE) {
			rte_pktmbuf_free(m);
			counters[TNFV_C_HELD_RELEASED]++;
			continue;
		}
		if (action != TNFV_ACTION_FORWARD) {
			rte_pktmbuf_free(m);
			counters[TNFV_C_DROP_VERDICT]++;
			continue;
		}
		/* A rewrite that changed a single-segment frame's length (room permitting). */
		if (m->nb_segs == 1 && length != m->data_len && length <= (uint32_t)(m->buf_len - m->data_off)) {
			m->data_len = (uint16_t)length;
			m->pkt_len = length;
		}
		lengths[n] = m->pkt_len;
		out[n++] = m;
	}
	uint16_t sent = 0;
	int tries = 0;
	while (sent < n) {
		sent += rte_eth_tx_burst((uint16_t)port, (uint16_t)queue, out + sent, (uint16_t)(n - sent));
		if (sent < n) {
			if (++tries > TNFV_TX_RETRIES)
				break;
			counters[TNFV_C_TX_RETRIES]++;
			rte_pause();
		}
	}
	uint64_t bytes = 0; /* from lengths[]: a sent mbuf is the PMD's, not ours to read */
	for (uint16_t i = 0; i < sent; i++)
		bytes += lengths[i];
	for (uint16_t i = sent; i < n; i++) {
		rte_pktmbuf_free(out[i]);
		counters[TNFV_C_DROP_TX_FULL]++;
	}
	counters[TNFV_C_TX_BURSTS]++;
	counters[TNFV_C_TX_PACKETS] += sent;
	counters[TNFV_C_TX_BYTES] += bytes;
	return sent;
}
