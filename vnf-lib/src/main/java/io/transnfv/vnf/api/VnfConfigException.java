package io.transnfv.vnf.api;

/**
 * A VNF parameter is missing, unknown or has a bad value. Carries the parameter's name so
 * the chain loader can point at the line that set it.
 */
public final class VnfConfigException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final String param;

    /**
     * @param param   the parameter at fault, or null if the whole configuration is.
     * @param message what is wrong and what to write instead.
     */
    public VnfConfigException(final String param, final String message)
    {
        super(message);
        this.param = param;
    }

    /** @return the parameter at fault, or null. */
    public String param()
    {
        return param;
    }
}
