package io.transnfv.dpdk;

import io.transnfv.engine.source.SourceException;

/**
 * A DPDK call failed, or DPDK is not available in this process. The message names the
 * operation and carries DPDK's own error text ({@code rte_strerror}), e.g.
 * {@code dpdk: rte_eth_dev_configure(port 0): Invalid argument (errno 22)}.
 */
public final class DpdkException extends SourceException
{
    private final int errno;

    /**
     * @param operation what was attempted.
     * @param errno     positive error number, or 0 when none applies.
     * @param text      the error's meaning (rte_strerror) or the reason.
     */
    public DpdkException(final String operation, final int errno, final String text)
    {
        super("dpdk", -1, operation + ": " + text + (errno != 0 ? " (errno " + errno + ")" : ""));
        this.errno = errno;
    }

    /** @return the positive error number, or 0. */
    public int errno()
    {
        return errno;
    }
}
