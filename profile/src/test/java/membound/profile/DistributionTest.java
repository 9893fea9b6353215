package membound.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import membound.vocabulary.BadInputException;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.Size;

class DistributionTest {

    /** HdrHistogram with 3 significant digits places a value within 0.1% of its true value. */
    static final double HISTOGRAM_PRECISION = 1e-3;

    @Test
    void shouldTakeNearestRankPercentilesOfSamples() {
        double[] rates = new double[100];
        for (int i = 0; i < rates.length; i++) {
            rates[99 - i] = (i + 1) * 1e9;
        }
        Distribution d = Distribution.ofSamples(rates);
        assertEquals(100e9, d.best());
        assertEquals(1e9, d.worst());
        assertEquals(50e9, d.median());
        assertEquals(5e9, d.p5());
        assertEquals(95e9, d.p95());
        assertEquals(50.5e9, d.mean(), 1);
        assertEquals(Math.sqrt((100.0 * 100 - 1) / 12) / 50.5, d.coefficientOfVariation(), 1e-12);
        assertEquals(100, d.samples());
    }

    @Test
    void shouldLeaveTheSpreadOfOneSampleAbsent() {
        Distribution d = Distribution.ofSamples(7e9);
        assertNull(d.coefficientOfVariation());
        assertEquals(7e9, d.typical());
        assertNull(Distribution.single(7e9).high(), "one sample has no spread");
    }

    @Test
    void shouldTurnPassTimesIntoRates() {
        Histogram passTimeNanos = new Histogram(3);
        // 1 GB per pass in 10 ms .. 19.9 ms: 100 GB/s at best, about 50 GB/s at worst.
        for (int i = 0; i < 100; i++) {
            passTimeNanos.recordValue(10_000_000L + i * 100_000L);
        }
        Distribution d = Distribution.ofDurationHistogram(1e9, passTimeNanos);
        assertEquals(100e9, d.best(), 100e9 * HISTOGRAM_PRECISION);
        assertEquals(1e9 / 19.9e-3, d.worst(), 50e9 * HISTOGRAM_PRECISION);
        assertEquals(1e9 / 14.9e-3, d.median(), 67e9 * HISTOGRAM_PRECISION);
        assertTrue(d.p5() < d.median() && d.median() < d.p95());
        assertEquals(100, d.samples());
    }

    @Test
    void shouldRejectStatisticsOutOfOrder() {
        BadInputException e = assertThrows(BadInputException.class,
                () -> new Distribution(10, 1.0, null, 12.0, null, null, null, 5));
        assertEquals("median must be <= best: median=12.0, best=10.0", e.getMessage());
        assertThrows(BadInputException.class, () -> new Distribution(Double.NaN, null, null, null, null, null, null, 1));
        assertThrows(BadInputException.class, () -> new Distribution(1, null, null, null, null, null, -0.1, 2));
        assertThrows(BadInputException.class, () -> Distribution.ofSamples());
    }

    @Property(tries = 200)
    void samplesAlwaysMakeAnOrderedDistributionThatRoundTrips(
            @ForAll @Size(min = 1, max = 40) java.util.List<@DoubleRange(min = 1, max = 1e13) Double> rates) {
        Distribution d = Distribution.ofSamples(rates.stream().mapToDouble(Double::doubleValue).toArray());
        assertTrue(d.worst() <= d.p5() && d.p5() <= d.median() && d.median() <= d.p95() && d.p95() <= d.best());
        String json = ProfileJson.toJson(d);
        assertEquals(json, ProfileJson.toJson(fromJson(json)));
    }

    private static Distribution fromJson(String json) {
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().readValue(json, Distribution.class);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }
}
