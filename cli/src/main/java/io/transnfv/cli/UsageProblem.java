package io.transnfv.cli;

/**
 * Input the user must fix, told the way the chain validator tells it: a sentence saying what
 * is wrong, then a {@code fix:} line saying what to write instead. The command exits with
 * {@link Failures#BAD_INPUT}.
 */
final class UsageProblem extends IllegalArgumentException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param problem what is wrong, naming the option and the value as written.
     * @param fix     what to do instead.
     */
    UsageProblem(final String problem, final String fix)
    {
        super(problem + System.lineSeparator() + "    fix: " + fix);
    }
}
