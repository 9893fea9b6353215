package membound.benchmarks.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Properties;

import org.junit.jupiter.api.Test;

import membound.vocabulary.BadInputException;

class JmhPropertiesTest {

    private static Properties properties(String... pairs) {
        Properties properties = new Properties();
        for (int i = 0; i < pairs.length; i += 2) {
            properties.setProperty(pairs[i], pairs[i + 1]);
        }
        return properties;
    }

    @Test
    void shouldTurnPropertiesIntoTheOptionsTheyStandFor() {
        String[] args = JmhProperties.arguments(new String[] {"-v", "SILENT"}, properties(
                "jmh.include", "Triad, Copy", "jmh.threads", "1,2", "jmh.params", "n=512; row=64", "jmh.wi", "0",
                "jmh.args", "-i 3", "jmh.ignoreLock", "true", "jmh.jvm", "/usr/bin/java", "membound.pin", "true"));

        // Properties in name order, after the command line as given.
        assertEquals(List.of("-v", "SILENT", "-i", "3", "Triad", "Copy", "-p", "n=512", "-p", "row=64",
                "-p", "threads=1,2", "-wi", "0"), List.of(args));
    }

    @Test
    void shouldRefuseAPropertyThatMeansNothingHere() {
        BadInputException e = assertThrows(BadInputException.class,
                () -> JmhProperties.arguments(new String[0], properties("jmh.warmup", "1")));

        assertTrue(e.getMessage().startsWith("jmh property must be one of jmh.include, jmh.params, jmh.args, jmh.batch,"),
                e::getMessage);
        assertTrue(e.getMessage().endsWith(": jmh.warmup=1"), e::getMessage);
    }
}
