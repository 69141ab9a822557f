package io.transnfv.engine.executor;

/** The contract test on 8 executor threads with the default strategy (the adaptive heuristic). */
class TpgBatchExecutorEightThreadsTest extends BatchExecutorContractTest
{
    @Override
    protected BatchExecutor newExecutor()
    {
        return new TpgBatchExecutor(8);
    }

    @Override
    protected String config()
    {
        return "TpgBatchExecutor threads=8 default (adaptive)";
    }
}
