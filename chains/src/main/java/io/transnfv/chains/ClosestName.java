package io.transnfv.chains;

import java.util.Collection;
import java.util.Locale;

/** Finds the known name closest to a misspelt one, for "did you mean" hints (the validator's and the command line's). Setup only. */
public final class ClosestName
{
    private ClosestName()
    {
    }

    /**
     * @param given the name as written.
     * @param known the names that would have been accepted.
     * @return the closest known name if it is close enough to be a likely typo, else null.
     */
    public static String of(final String given, final Collection<String> known)
    {
        final String g = given.toLowerCase(Locale.ROOT);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        String abbreviated = null;
        for (final String candidate : known)
        {
            final String c = candidate.toLowerCase(Locale.ROOT);
            final int distance = distance(g, c);
            if (distance < bestDistance)
            {
                best = candidate;
                bestDistance = distance;
            }
            if (abbreviated == null && g.length() >= 2 && (c.contains(g) || isAbbreviation(g, c)))
            {
                abbreviated = candidate;
            }
        }
        final int limit = Math.min(3, Math.max(1, given.length() / 3));
        return bestDistance <= limit ? best : abbreviated;
    }

    /** @return true if {@code shortName} starts like {@code name} and its letters appear in order in it. */
    private static boolean isAbbreviation(final String shortName, final String name)
    {
        if (shortName.charAt(0) != name.charAt(0))
        {
            return false;
        }
        int j = 0;
        for (int i = 0; i < name.length() && j < shortName.length(); i++)
        {
            if (name.charAt(i) == shortName.charAt(j))
            {
                j++;
            }
        }
        return j == shortName.length();
    }

    /** Optimal string alignment distance: edits, with a swap of neighbours counting as one. */
    static int distance(final String a, final String b)
    {
        final int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++)
        {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++)
        {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++)
        {
            for (int j = 1; j <= b.length(); j++)
            {
                final int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1))
                {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
