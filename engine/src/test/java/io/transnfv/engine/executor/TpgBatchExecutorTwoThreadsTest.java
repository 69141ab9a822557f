package io.transnfv.engine.executor;

/** The contract test on 2 executor threads: breadth-first, single operation, eager abort. */
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
        return "TpgBatchExecutor threads=2 breadth-first/single-operation/eager-abort";
    }
}
