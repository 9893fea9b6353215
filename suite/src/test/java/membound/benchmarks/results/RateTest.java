package membound.benchmarks.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

import membound.vocabulary.units.RateStatistics;

/** The table's rates are the profile's: RateStatistics from the pass times. */
class RateTest {

    @Test
    void shouldReportTheSpreadOfTheRatesNotOfTheTimes() {
        // 999 passes of 100 us and one the host stalled for 25 ms, as a cache-sized sweep point saw.
        long[] nanos = new long[1000];
        Arrays.fill(nanos, 100_000L);
        nanos[999] = 25_000_000L;
        PassTimes times = PassTimes.ofNanos(nanos);
        RateStatistics rate = times.rates(64e6);

        assertTrue(times.coefficientOfVariation() > 2.5, "the times' CV: " + times.coefficientOfVariation());
        // Rates: 999 at r and one at r/250: std/mean = sqrt(p(1-p)) (1 - 1/250) / (1 - p (1 - 1/250)), p = 1/1000.
        double p = 0.001;
        double expected = Math.sqrt(p * (1 - p)) * (1 - 1 / 250.0) / (1 - p * (1 - 1 / 250.0));
        assertEquals(expected, rate.coefficientOfVariation(), 0.002);
        assertEquals(640e9, rate.median(), 640e9 * 0.001);
    }

    @Test
    void shouldHaveNoSpreadForEqualPassesOrASinglePass() {
        assertEquals(0, PassTimes.ofNanos(5000, 5000, 5000).rates(1).coefficientOfVariation(), 1e-6);
        assertEquals(null, PassTimes.ofNanos(5000).rates(1).coefficientOfVariation());
    }
}
