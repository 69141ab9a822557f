package io.transnfv.tpg.txn;

/**
 * Picks the target of a {@link OperationType#CHOOSE} operation among its declared
 * candidates, from their values ({@link FunctionContext#candidateValue(int)}). Same
 * determinism and statelessness rules as {@link StateFunction}.
 */
@FunctionalInterface
public interface ChooseFunction
{
    /** Returned to pick no candidate: the operation then changes nothing. */
    int NONE = -1;

    /**
     * @param ctx the operation's inputs, with the candidates' values.
     * @return the index of the picked candidate in declaration order, or {@link #NONE}.
     */
    int choose(FunctionContext ctx);
}
