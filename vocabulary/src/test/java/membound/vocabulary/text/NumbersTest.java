package membound.vocabulary.text;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The printed forms predict, the report's page and validate rely on, byte for byte. */
class NumbersTest {

    @Test
    void shouldPrintPercentagesWithOneDecimal() {
        assertEquals("45.3%", Numbers.percent(0.4531));
        assertEquals("+4.2%", Numbers.signedPercent(0.042));
        assertEquals("-0.8%", Numbers.signedPercent(-0.008));
    }

    @Test
    void shouldPrintCountsForPredictAndRoundedForThePage() {
        assertEquals("1.24 T", Numbers.count(1.24e12));
        assertEquals("2.00 B", Numbers.count(2e9));
        assertEquals("8.03 M", Numbers.count(8.03e6));
        assertEquals("20,480", Numbers.count(20480));
        assertEquals("3", Numbers.count(3));
        assertEquals("2.5", Numbers.count(2.5));
        assertEquals("1240.00 B", Numbers.roundedCount(1.24e12));
        assertEquals("500 M", Numbers.roundedCount(5e8));
        assertEquals("2,048", Numbers.roundedCount(2048));
        assertEquals("3", Numbers.roundedCount(2.5));
    }

    @Test
    void shouldPrintDurationsForPredictRoundedForThePageAndStepsForValidate() {
        assertEquals("12.5 us", Numbers.duration(12.5e-6));
        assertEquals("840.2 ms", Numbers.duration(0.8402));
        assertEquals("2.34 s", Numbers.duration(2.3378));
        assertEquals("14.5 min", Numbers.duration(870));
        assertEquals("6.2 h", Numbers.duration(6.2 * 3600));
        assertEquals("13.2 days", Numbers.duration(13.2 * 86400));
        assertEquals("840 ms", Numbers.roundedDuration(0.8402));
        assertEquals("0 ms", Numbers.roundedDuration(12.5e-6));
        assertEquals("14.5 min", Numbers.roundedDuration(870));
        assertEquals("1.50 s", Numbers.secondsOrMillis(1.5));
        assertEquals("150.00 s", Numbers.secondsOrMillis(150));
        assertEquals("112.3 ms", Numbers.secondsOrMillis(0.1123));
        assertEquals("0.42 ms", Numbers.secondsOrMillis(0.00042));
    }

    @Test
    void shouldPrintBytesInPowersOfTenOrGib() {
        assertEquals("1.20 TB", Numbers.decimalBytes(1.2e12));
        assertEquals("16.06 GB", Numbers.decimalBytes(16.06e9));
        assertEquals("4.2 MB", Numbers.decimalBytes(4.2e6));
        assertEquals("512 B", Numbers.decimalBytes(512));
        assertEquals("15.0 GiB", Numbers.gib(15.0 * (1L << 30)));
    }
}
