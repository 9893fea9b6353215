package membound.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;

/** {@code membound hardware}: the detected host and the datasheet catalog, every figure with its source. */
class HardwareCommandTest {

    private static String[] run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Membound.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new String[] {Integer.toString(exit), out.toString(), err.toString()};
    }

    @Test
    void shouldShowTheDetectedHost() {
        String[] r = run("hardware");
        assertEquals("0", r[0], r[2]);
        assertTrue(r[1].contains("logical cpus"), r[1]);
    }

    @Test
    void shouldShowACatalogEntryWithTheSourceOfEveryFigure() {
        String[] r = run("hardware", "--platform", "spark");
        assertEquals("0", r[0], r[2]);
        assertTrue(r[1].contains("273.0 GB/s"), r[1]);
        assertTrue(r[1].contains("NVIDIA DGX Spark product page"), r[1]);
    }

    @Test
    void shouldListTheCatalogAsJson() throws Exception {
        String[] r = run("hardware", "--list", "--format", "json");
        assertEquals("0", r[0], r[2]);
        JsonNode catalog = new ObjectMapper().readTree(r[1]).get("catalog");
        assertTrue(catalog.size() >= 10, r[1]);
        for (JsonNode entry : catalog) {
            for (JsonNode device : entry.get("devices")) {
                assertTrue(device.get("memoryBandwidthBytesPerSecond").get("source").asText().length() > 10, entry::toString);
            }
        }
    }

    @Test
    void shouldSuggestTheEntryAMistypedNameMeant() {
        String[] r = run("hardware", "--platform", "gh20");
        assertEquals("2", r[0]);
        assertTrue(r[2].contains("did you mean gh200"), r[2]);
    }
}
