package io.transnfv.engine.executor;

/** The contract test on 8 executor threads: breadth-first, single operation, eager abort. */
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
        return "TpgBatchExecutor threads=8 breadth-first/single-operation/eager-abort";
    }
}
