package io.transnfv.engine.executor;

/** The contract test on 4 executor threads with the default strategy (the adaptive heuristic). */
class TpgBatchExecutorFourThreadsTest extends BatchExecutorContractTest
{
    @Override
    protected BatchExecutor newExecutor()
    {
        return new TpgBatchExecutor(4);
    }

    @Override
    protected String config()
    {
        return "TpgBatchExecutor threads=4 default (adaptive)";
    }
}
