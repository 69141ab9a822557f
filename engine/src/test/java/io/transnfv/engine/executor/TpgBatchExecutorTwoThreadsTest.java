package io.transnfv.engine.executor;

/** The contract test on 2 executor threads with the default strategy (the adaptive heuristic). */
class TpgBatchExecutorTwoThreadsTest extends BatchExecutorContractTest
{
    @Override
    protected BatchExecutor newExecutor()
    {
        return new TpgBatchExecutor(2);
    }

    @Override
    protected String config()
    {
        return "TpgBatchExecutor threads=2 default (adaptive)";
    }
}
