/*
 * Binary layouts shared by the C side of the DPDK front end and its Java binding.
 * Java mirrors every offset here in io.transnfv.dpdk.RxDescriptor, TxDescriptor and
 * NativeCounters; change both together.
 *
 * All fields are in the machine's byte order (the Java side reads them through a
 * direct ByteBuffer set to ByteOrder.nativeOrder()).
 */
#ifndef TRANSNFV_DPDK_H
#define TRANSNFV_DPDK_H

#include <stdint.h>

/* Most packets one rx or tx burst carries; the Java side never asks for more. */
#define TNFV_MAX_BURST 256
/* Most rx/tx queues per port the binding configures. */
#define TNFV_MAX_QUEUES 16
/* The longest frame the rx reserve counts on (jumbo frames), unless the port's
 * max_rx_pktlen is smaller: before each rx burst the pool must hold, for every packet
 * asked for, ceil(this / data room) free mbufs. Java: DpdkConfig.MAX_FRAME_BYTES. */
#define TNFV_MAX_FRAME_BYTES 9216

/*
 * Rx descriptor: one per received packet, written by rxBurst0. Frames are not parsed
 * here: the engine's packet view (io.transnfv.vnf.packet.PacketFlyweight) parses each one,
 * in place, and is the only parser (docs/dpdk.md says why).
 *
 *   0                   8                  16                  24
 *   +-------------------+-------------------+-------------------+
 *   | mbuf address      | data offset in    | timestamp (ns)    |
 *   |                   | the pool window   |                   |
 *   +---------+---------+-------------------+----+----+---------+
 *   | 24 data | 28 pkt  | 32..39 reserved   |40 segs|42 -|44 rss|
 *   |  length |  length |                   |       |    | hash |
 *   +---------+---------+-------------------+----+----+---------+
 *   48 flags (u32), 52..63 reserved
 */
#define TNFV_RX_DESCRIPTOR_BYTES   64
#define TNFV_RX_MBUF               0   /* u64 */
#define TNFV_RX_DATA_OFFSET        8   /* u64: rte_pktmbuf_mtod - pool window base */
#define TNFV_RX_TIMESTAMP_NS      16   /* u64: PMD rx timestamp, else wall clock at the burst */
#define TNFV_RX_DATA_LENGTH       24   /* u32: bytes in the first segment */
#define TNFV_RX_PACKET_LENGTH     28   /* u32: bytes in the whole chain (pkt_len) */
#define TNFV_RX_SEGMENTS          40   /* u16: nb_segs */
#define TNFV_RX_RSS_HASH          44   /* u32 */
#define TNFV_RX_FLAGS             48   /* u32: TNFV_RX_FLAG_* */

#define TNFV_RX_FLAG_PMD_TIME  0x20

/*
 * Tx descriptor: one per verdict, written by the Java sink, read by txBurst0.
 *   0 mbuf address (u64) | 8 frame length (u32) | 12 action (u32)
 * For TNFV_ACTION_FORWARD_COPY the first field is instead an offset into the port's tx
 * staging area, where Java put the frame: C copies it into mbufs of its own.
 */
#define TNFV_TX_DESCRIPTOR_BYTES  16
#define TNFV_TX_MBUF               0
#define TNFV_TX_LENGTH             8
#define TNFV_TX_ACTION            12

#define TNFV_ACTION_DROP           0
#define TNFV_ACTION_FORWARD        1
/* Free the mbuf, no verdict: the engine holds a copy of the packet (an IP fragment waiting
 * for its datagram's first) and gives its verdict later, as a FORWARD_COPY or not at all. */
#define TNFV_ACTION_RELEASE        2
/* Transmit the frame staged at the descriptor's offset, copied into newly allocated mbufs. */
#define TNFV_ACTION_FORWARD_COPY   3

/* Frames the tx staging area holds, each TNFV_MAX_FRAME_BYTES long: a burst carries at
 * most this many copied frames (the Java sink flushes earlier). */
#define TNFV_TX_STAGING_FRAMES    16

/* Native counters, u64 each, index * 8 in the counters buffer. Written by the thread
 * that owns the queue (rx: the receiver thread; tx: the sink's thread), read by others. */
enum tnfv_counter {
	TNFV_C_RX_BURSTS = 0,        /* rxBurst0 calls that returned packets */
	TNFV_C_RX_EMPTY_POLLS,       /* rxBurst0 calls that returned none */
	TNFV_C_RX_PACKETS,
	TNFV_C_RX_BYTES,
	TNFV_C_RX_MULTI_SEGMENT,     /* frames longer than one mbuf's data room */
	TNFV_C_TX_BURSTS,            /* txBurst0 calls */
	TNFV_C_TX_PACKETS,           /* accepted by the PMD */
	TNFV_C_TX_BYTES,
	TNFV_C_TX_RETRIES,           /* tx bursts the PMD only partly took: backpressure */
	TNFV_C_DROP_VERDICT,         /* dropped because post-processing said so */
	TNFV_C_DROP_TX_FULL,         /* the PMD refused them after every retry */
	TNFV_C_ETH_IPACKETS,         /* rte_eth_stats snapshot */
	TNFV_C_ETH_OPACKETS,
	TNFV_C_ETH_IMISSED,
	TNFV_C_ETH_IERRORS,
	TNFV_C_ETH_OERRORS,
	TNFV_C_ETH_RX_NOMBUF,
	TNFV_C_RX_POOL_LOW,          /* rx polls cut short or skipped: the pool could not hold the burst's worst case */
	TNFV_C_HELD_RELEASED,        /* mbufs freed early: the engine holds a copy of their fragment */
	TNFV_C_TX_COPIED,            /* frames transmitted from a copy, in mbufs allocated for them */
	TNFV_C_DROP_NO_MBUF,         /* copied frames dropped: the pool had no mbufs for them */
	TNFV_C_ETH_IBYTES,           /* rte_eth_stats snapshot, bytes (testpmd's RX-bytes, TX-bytes) */
	TNFV_C_ETH_OBYTES,
	TNFV_C_COUNT
};

#endif
