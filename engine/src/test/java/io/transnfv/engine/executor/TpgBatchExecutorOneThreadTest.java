package io.transnfv.engine.executor;

/** The contract test on 1 executor thread with the default strategy (the adaptive heuristic). */
class TpgBatchExecutorOneThreadTest extends BatchExecutorContractTest
{
    @Override
    protected BatchExecutor newExecutor()
    {
        return new TpgBatchExecutor(1);
    }

    @Override
    protected String config()
    {
        return "TpgBatchExecutor threads=1 default (adaptive)";
    }
}
