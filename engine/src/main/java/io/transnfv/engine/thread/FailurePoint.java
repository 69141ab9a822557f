package io.transnfv.engine.thread;

/**
 * A failure point for tests of what a dying engine thread does to a run: when the system
 * property {@value #PROPERTY} names this point's thread role ({@code worker}, {@code ingress}, {@code dpdk-rx},
 * {@code serial}), optionally with the number of checks to pass first ({@code worker:1000}),
 * {@link #check()} throws {@link InjectedFailure} from that thread. The property is read when
 * the point is made, with its owner; unset (always, outside those tests), a check is a read of
 * a final field.
 */
public final class FailurePoint
{
    /** The system property that arms points: {@code ROLE} or {@code ROLE:CHECKS}. */
    public static final String PROPERTY = "transnfv.test.fail-thread";

    private final String role;
    private final boolean armed;
    private long remaining;

    /** @param role the thread role this point is on. */
    public FailurePoint(final String role)
    {
        this.role = role;
        final String value = System.getProperty(PROPERTY);
        final String[] parts = value == null ? new String[0] : value.split(":", 2);
        this.armed = parts.length > 0 && parts[0].equals(role);
        this.remaining = armed && parts.length == 2 ? Long.parseLong(parts[1]) : 0;
    }

    /**
     * @throws InjectedFailure if armed and its checks are used up. Called by one thread, or by
     *                         several where any one of them failing is what the test wants.
     */
    public void check()
    {
        if (armed && remaining-- <= 0)
        {
            throw new InjectedFailure("injected failure of the " + role + " thread (" + PROPERTY + ")");
        }
    }

    /** What an armed point throws: an {@link Error}, like the failures it stands for. */
    public static final class InjectedFailure extends Error
    {
        private static final long serialVersionUID = 1L;

        InjectedFailure(final String message)
        {
            super(message);
        }
    }
}
