package io.transnfv.chains;

import java.util.Objects;

/**
 * One problem in a chain file, with where it is and what to write instead.
 *
 * <pre>
 *   chains/nat.yaml:7:11: unknown VNF type 'natt'
 *       fix: write 'nat' (known types: firewall, nat, ...)
 * </pre>
 *
 * @param source  the file (or source name) the chain came from.
 * @param line    1-based line.
 * @param column  1-based column.
 * @param message what is wrong.
 * @param fix     what to write instead; empty when there is nothing more to say.
 */
public record ChainError(String source, int line, int column, String message, String fix)
{
    /** Checks the fields. */
    public ChainError
    {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(message, "message");
        fix = fix == null ? "" : fix;
    }

    /** @return {@code source:line:column: message}, then the fix on an indented line. */
    public String format()
    {
        final String where = source + ":" + line + ":" + column + ": " + message;
        return fix.isEmpty() ? where : where + System.lineSeparator() + "    fix: " + fix;
    }

    /** @return {@code line:column}. */
    public String position()
    {
        return line + ":" + column;
    }

    @Override
    public String toString()
    {
        return format();
    }
}
