package membound.vocabulary.units;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import membound.vocabulary.BadInputException;

class UnitsTest {

    @Test
    void shouldParseSizesWithDecimalAndBinarySuffixes() {
        assertEquals(4096, Units.parseBytes("size", "4096"));
        assertEquals(48 * 1024, Units.parseBytes("size", "48KiB"));
        assertEquals(64L << 20, Units.parseBytes("size", "64MiB"));
        assertEquals(2_000_000_000L, Units.parseBytes("size", "2GB"));
        assertEquals(3L << 29, Units.parseBytes("size", "1.5GiB"));
    }

    @Test
    void shouldParseBandwidthAndFlops() {
        assertEquals(273e9, Units.parseBandwidth("bw", "273GB/s"));
        assertEquals(4.8e12, Units.parseBandwidth("bw", "4.8TB/s"), 1);
        assertEquals(92e12, Units.parseFlops("flops", "92T"));
        assertEquals(92e12, Units.parseFlops("flops", "92TFLOPS"));
        assertEquals(1.2e15, Units.parseFlops("flops", "1.2e15"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "abc", "12XB", "-5MiB", "0", "1.5", "64 MiBs"})
    void shouldRejectMalformedSizesNamingTheSettingAndValue(String text) {
        BadInputException e = assertThrows(BadInputException.class, () -> Units.parseBytes("workingSet", text));
        assertEquals(true, e.getMessage().startsWith("workingSet must be "), e.getMessage());
        assertEquals(true, e.getMessage().endsWith("workingSet=" + text), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"273", "273GB", "0GB/s", "NaN", "fastGB/s"})
    void shouldRejectBandwidthWithoutRateUnitOrValue(String text) {
        assertThrows(BadInputException.class, () -> Units.parseBandwidth("nominal-bandwidth", text));
    }

    @Test
    void shouldPrintBinarySizesAndDecimalBandwidth() {
        assertEquals("2.00 GiB", Units.formatBytes(2L << 30));
        assertEquals("48.0 KiB", Units.formatBytes(48 * 1024));
        assertEquals("512 B", Units.formatBytes(512));
        assertEquals("231.9 GB/s", Units.formatBandwidth(231.9e9));
        assertEquals("4.80 TB/s", Units.formatBandwidth(4.8e12));
    }
}
