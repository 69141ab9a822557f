package io.transnfv.chains;

import java.util.List;

/**
 * A chain file failed validation. Holds every error found, in file order; the message
 * lists each as {@code file:line:column: message} followed by its fix.
 */
public final class ChainValidationException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final transient List<ChainError> errors;

    /** @param errors at least one error. */
    public ChainValidationException(final List<ChainError> errors)
    {
        super(render(errors));
        this.errors = List.copyOf(errors);
    }

    /** @return the errors, in file order. */
    public List<ChainError> errors()
    {
        return errors;
    }

    private static String render(final List<ChainError> errors)
    {
        if (errors.isEmpty())
        {
            throw new IllegalArgumentException("a validation failure needs at least one error");
        }
        final String nl = System.lineSeparator();
        final StringBuilder out = new StringBuilder()
            .append(errors.size() == 1 ? "1 error" : errors.size() + " errors")
            .append(" in chain ").append(errors.get(0).source()).append(':');
        for (final ChainError error : errors)
        {
            out.append(nl).append(error.format());
        }
        return out.toString();
    }
}
