package io.transnfv.engine.checkpoint;

import java.io.IOException;

/**
 * A sink whose writes are committed by checkpoints: what it wrote after the last checkpoint is
 * not yet committed, and a resumed run truncates it back to the committed length. Called on the
 * thread that writes the sink, at a batch boundary.
 */
public interface CommittedOutput
{
    /**
     * Makes everything written so far durable (flush, fsync) and says how much it is.
     *
     * @return the sink's name, committed bytes and items.
     * @throws IOException if the sink cannot be flushed or synced.
     */
    Checkpoint.Output commit() throws IOException;
}
