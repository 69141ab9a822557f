package io.transnfv.engine.executor;

/** The contract test on 8 executor threads with the default policy (dfs/op/eager). */
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
        return "TpgBatchExecutor threads=8 default (dfs/op/eager)";
    }
}
