package io.transnfv.vnf.builtin.example;

import io.transnfv.vnf.harness.Frames;
import io.transnfv.vnf.harness.VnfHarness;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class HostRateLimiterTest
{
    private static final long S = 1_000_000_000L;

    @Test
    void shouldDropPacketsOverTheLimitUntilTheNextSecond()
    {
        final VnfHarness limiter = VnfHarness.of("limiter", new HostRateLimiter(2));
        final byte[] frame = Frames.udp("10.0.0.1", 5000, "8.8.8.8", 53, 20);

        assertEquals("out", limiter.offer(frame, S).output());
        assertEquals("out", limiter.offer(frame, S + 1).output());
        assertEquals("rate-limited", limiter.offer(frame, S + 2).dropReason());
        assertEquals("out", limiter.offer(Frames.udp("10.0.0.2", 5000, "8.8.8.8", 53, 20), S + 3).output());
        assertEquals("out", limiter.offer(frame, 2 * S).output());

        assertEquals(1, limiter.counter("rate-limited").get());
        assertEquals(List.of(), limiter.check(), "its state checker holds between packets");
        limiter.advanceTo(4 * S);
        assertEquals("", limiter.dump());
    }
}
