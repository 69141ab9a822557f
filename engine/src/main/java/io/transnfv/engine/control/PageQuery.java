package io.transnfv.engine.control;

import io.transnfv.engine.state.MultiVersionStateTable;
import io.transnfv.engine.state.StatePage;
import io.transnfv.vnf.api.StateReader;

import java.util.Locale;

/**
 * One page of a table's entries, read where no batch is in flight ({@link CommandQueue}), so
 * the page is the state after a whole number of batches; a table is read page by page, never
 * whole. The engine's heap tables are paged in slot order with the work bounded per page
 * ({@link MultiVersionStateTable#pageInSlotOrder}: at most {@link #SLOTS_PER_ENTRY} home slots
 * per entry asked); other states (the serial oracle's, a table in Chronicle Map or Redis) are
 * paged in ascending key order over a snapshot of the table's keys, whose cost follows the
 * table's size.
 *
 * <p>The cursor is text: {@code s} and hex digits for slot order, {@code k} and hex digits (the
 * last key given) for key order. A cursor of the other order, or one that does not parse, is
 * refused ({@link #error()}).
 */
public final class PageQuery extends StateCommand
{
    /** Entries in a page when the asker names no limit. */
    public static final int DEFAULT_LIMIT = 100;
    /** The most entries a page may hold. */
    public static final int MAX_LIMIT = 1000;
    /** Home slots a slot-order page may visit per entry asked: a sparse table's page may be short, never slow. */
    public static final int SLOTS_PER_ENTRY = 16;

    private final int table;
    private final String after;
    private final int limit;
    private final StatePage page = new StatePage();
    private String next;
    private String order;
    private String error;

    /**
     * @param table the table's index in the chain's catalogue.
     * @param after the previous page's {@link #next()} cursor, or null for the first page.
     * @param limit 1 to {@link #MAX_LIMIT} entries.
     */
    public PageQuery(final int table, final String after, final int limit)
    {
        if (limit < 1 || limit > MAX_LIMIT)
        {
            throw new IllegalArgumentException("a page holds 1 to " + MAX_LIMIT + " entries, not " + limit);
        }
        if (after != null && !validCursor(after))
        {
            throw new IllegalArgumentException("'" + after + "' is not a page cursor (a page's 'next')");
        }
        this.table = table;
        this.after = after;
        this.limit = limit;
    }

    private static boolean validCursor(final String cursor)
    {
        if (cursor.length() < 2 || cursor.length() > 17 || (cursor.charAt(0) != 's' && cursor.charAt(0) != 'k'))
        {
            return false;
        }
        return cursor.substring(1).chars().allMatch(c -> Character.digit(c, 16) >= 0);
    }

    @Override
    protected void read(final StateReader committed)
    {
        if (committed instanceof MultiVersionStateTable heap && heap.pagesInSlotOrder(table))
        {
            order = "slot";
            if (after != null && after.charAt(0) != 's')
            {
                error = "'" + after + "' is a cursor of a key-order page; this table is paged in slot order";
                return;
            }
            final long cursor = after == null ? 0L : Long.parseUnsignedLong(after.substring(1), 16);
            final long following = heap.pageInSlotOrder(table, cursor, limit, limit * SLOTS_PER_ENTRY, page);
            next = following == MultiVersionStateTable.END_OF_PAGES ? null : "s" + Long.toHexString(following);
            return;
        }
        order = "key";
        if (after != null && after.charAt(0) != 'k')
        {
            error = "'" + after + "' is a cursor of a slot-order page; this table is paged in key order";
            return;
        }
        final boolean fromStart = after == null;
        final long last = fromStart ? 0L : Long.parseUnsignedLong(after.substring(1), 16);
        final boolean[] more = new boolean[1];
        committed.forEach(table, (key, value) ->
        {
            if (fromStart || key > last)
            {
                if (page.size() < limit)
                {
                    page.add(key, value);
                }
                else
                {
                    more[0] = true;
                }
            }
        });
        next = more[0] ? "k" + Long.toHexString(page.key(page.size() - 1)).toLowerCase(Locale.ROOT) : null;
    }

    /** @return the entries, once answered (none if {@link #error()} is set). */
    public StatePage page()
    {
        return page;
    }

    /** @return the next page's cursor, or null after the last page; once answered. */
    public String next()
    {
        return next;
    }

    /** @return {@code slot} or {@code key}: the order the table's pages come in; once answered. */
    public String order()
    {
        return order;
    }

    /** @return why the cursor was refused, or null; once answered. */
    public String error()
    {
        return error;
    }

    /** @return the most entries asked. */
    public int limit()
    {
        return limit;
    }
}
