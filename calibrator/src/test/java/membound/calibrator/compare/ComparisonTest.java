package membound.calibrator.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ComparisonTest {

    static Figure rate(double value, Double low, Double high) {
        return new Figure("k", Figure.BYTES_PER_SECOND, true, value, "median", low, high, "test");
    }

    static Figure latency(double p50, double p90) {
        return new Figure("k", Figure.NANOSECONDS, false, p50, "p50", p50, p90, "test");
    }

    @Test
    void shouldCallAChangeOnlyWhenTheSpreadsDoNotOverlap() {
        assertEquals(Comparison.WORSE, Comparison.verdict(rate(100, 95.0, 105.0), rate(80, 76.0, 84.0)));
        assertEquals(Comparison.BETTER, Comparison.verdict(rate(80, 76.0, 84.0), rate(100, 95.0, 105.0)));
        assertEquals(Comparison.WITHIN_SPREAD, Comparison.verdict(rate(100, 95.0, 105.0), rate(93, 88.0, 96.0)),
                "7% slower but the spreads overlap");
        assertEquals(Comparison.NO_SPREAD, Comparison.verdict(rate(100, null, null), rate(50, 45.0, 55.0)),
                "halved, but one side has no spread: not called a change");
    }

    @Test
    void shouldTreatHigherLatencyAsWorse() {
        assertEquals(Comparison.WORSE, Comparison.verdict(latency(100, 105), latency(130, 140)));
        assertEquals(Comparison.BETTER, Comparison.verdict(latency(130, 140), latency(100, 105)));
    }
}
