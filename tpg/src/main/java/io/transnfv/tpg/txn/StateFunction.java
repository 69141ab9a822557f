package io.transnfv.tpg.txn;

/**
 * A user function computing an operation's new value. It must be deterministic: the same
 * inputs (current value, parameters, earlier results, operand, attachment) give the same
 * output, whichever thread runs it and however often (executors may re-run it after an
 * abort elsewhere). Instances are shared by every transaction and must be stateless.
 */
@FunctionalInterface
public interface StateFunction
{
    /**
     * @param current the target's value as seen by this operation.
     * @param ctx     the operation's inputs; call {@link FunctionContext#abort(int)} to abort
     *                the whole transaction (the return value is then ignored).
     * @return the target's new value; returning {@code current} leaves it unchanged.
     */
    long apply(long current, FunctionContext ctx);
}
