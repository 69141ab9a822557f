package io.transnfv.vnf.api;

/**
 * What post-processing decides for one packet at one VNF. Ids come from {@link VnfSetup}.
 * If neither {@link #forward} nor {@link #drop} is called, the packet goes to output 0.
 */
public interface PacketActions
{
    /** Sends the packet to a named output (edges of the chain leave from outputs). */
    void forward(int output);

    /** Drops the packet; the reason is counted and reported. */
    void drop(int reason);

    /** Raises an alert about {@code subject} (e.g. a host key); the packet still moves on. */
    void alert(int alertType, long subject);

    /** Attaches a value to the packet's output record (e.g. the chosen server). */
    void tag(int tag, long value);
}
