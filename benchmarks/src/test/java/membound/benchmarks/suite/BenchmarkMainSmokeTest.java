package membound.benchmarks.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import membound.benchmarks.BenchmarkMain;

/**
 * Runs the suite's main as a user would, with tiny sizes and one short iteration: proof that every benchmark
 * runs, validates and lands in the table and the JSON file, not a measurement. Output is printed only when a
 * test fails.
 */
class BenchmarkMainSmokeTest {

    /** In-process (no fork), no warm-up, one 20 ms iteration, fail on the first error. */
    static final List<String> TINY = List.of("-f", "0", "-wi", "0", "-i", "1", "-r", "20ms", "-foe", "true");

    @TempDir
    Path results;

    record Run(int status, String out, String err) {
        String all() {
            return "--- stdout\n" + out + "\n--- stderr\n" + err;
        }
    }

    private Run run(Properties properties, String... args) {
        properties.setProperty("membound.repositoryRoot", results.toString());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = BenchmarkMain.run(args, properties, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static String[] tiny(String... more) {
        return Stream.concat(TINY.stream(), Stream.of(more)).toArray(String[]::new);
    }

    @Test
    void shouldRunEveryStreamKernelInBothTypesAndPrintTheTable() throws IOException {
        Run run = run(new Properties(), tiny("StreamBenchmark", "-p", "workingSet=48KiB", "-p", "threads=2",
                "-p", "elementType=double,float", "-p", "implementation=vector,scalar"));

        assertEquals(0, run.status(), run::all);
        for (String kernel : List.of("Copy", "Scale", "Add", "Triad", "Dot", "Nstream", "Sum", "Fill")) {
            assertTrue(run.out().lines().anyMatch(line -> line.startsWith(kernel + " ")), () -> kernel + "\n" + run.all());
        }
        assertTrue(run.out().contains("hardware/nominal"), run::all);
        assertTrue(run.out().contains("non-temporal"), run::all);
        // The table says which write-allocate factor it applied to each kernel, and that it assumed it.
        assertTrue(run.out().lines().anyMatch(line -> line.startsWith("Fill ") && line.contains(" x2 ")), run::all);
        assertTrue(run.out().lines().anyMatch(line -> line.startsWith("Sum ") && line.contains(" x1 ")), run::all);
        assertTrue(run.out().contains("That factor is assumed here, not measured"), run::all);
        assertJsonWritten(run, "StreamBenchmark.pass");
        assertFlaggedAsCalibrateFlags(run);
    }

    /**
     * Every bandwidth row ends with the flags calibrate would give its figure: noisy exactly where its CV is above
     * calibrate's 10%, each flag explained on a line of its own, and load watched (or said not to be).
     */
    private static void assertFlaggedAsCalibrateFlags(Run run) {
        java.util.regex.Pattern row = java.util.regex.Pattern.compile(
                "^(\\w+)\\s+(double|float)\\s+(vector|scalar)\\s+(\\d+)\\s.*?\\s([0-9.]+)%\\s+\\S+\\s+(\\S+)$");
        int rows = 0;
        for (String line : run.out().lines().toList()) {
            java.util.regex.Matcher m = row.matcher(line);
            if (!m.matches()) {
                continue;
            }
            rows++;
            double cv = Double.parseDouble(m.group(5)) / 100;
            String flags = m.group(6);
            assertEquals(cv > membound.benchmarks.results.RunFlags.NOISY_COEFFICIENT_OF_VARIATION + 0.0005,
                    flags.contains("noisy"), () -> line + "\n" + run.all());
            if (flags.contains("noisy")) {
                String what = m.group(1) + " " + m.group(2) + " " + m.group(3) + ", " + m.group(4) + " threads";
                assertTrue(run.out().lines().anyMatch(l -> l.startsWith("flag noisy " + what)
                        && l.contains("above the 10% threshold")), () -> what + "\n" + run.all());
            }
        }
        assertTrue(rows >= 8, run::all);
        assertTrue(run.out().contains("load: not watched") == !java.nio.file.Files.isReadable(
                java.nio.file.Path.of("/proc/stat")), run::all);
    }

    @Test
    void shouldRunLatencyAndComputeBenchmarks() throws IOException {
        Run run = run(new Properties(), tiny("LatencyBenchmark", "FmaBenchmark", "GemmBenchmark",
                "-p", "workingSet=16KiB", "-p", "n=64", "-p", "threads=1"));

        assertEquals(0, run.status(), run::all);
        assertTrue(run.out().contains("load latency"), run::all);
        assertTrue(run.out().contains("fma-peak"), run::all);
        assertTrue(run.out().contains("gemm"), run::all);
        assertJsonWritten(run, "GemmBenchmark.multiply");
    }

    /** Tagged "fork": it starts a JVM by its own path, which CI's emulated aarch64 run cannot exec. */
    @Test
    @Tag("fork")
    void shouldForkAJvmWithTheVectorModuleWhenAskedAsJmhRunDoes() throws IOException {
        Properties properties = new Properties();
        properties.setProperty("jmh.include", "Triad");
        properties.setProperty("jmh.workingSet", "64KiB");
        properties.setProperty("jmh.threads", "1");
        properties.setProperty("jmh.forks", "1");
        properties.setProperty("jmh.wi", "0");
        properties.setProperty("jmh.i", "1");
        properties.setProperty("jmh.r", "50ms");

        Run run = run(properties);

        assertEquals(0, run.status(), run::all);
        assertTrue(run.out().lines().anyMatch(line -> line.startsWith("Triad ")), run::all);
        assertTrue(!run.out().contains("WARNING: Using incubator modules"), run::all);
    }

    static Stream<Arguments> badInput() {
        return Stream.of(
                Arguments.of("jmh.workingSet", "64XB", "workingSet"),
                Arguments.of("jmh.include", "NoSuchBenchmark", "include"),
                Arguments.of("jmh.threads", "zero", "threads"),
                Arguments.of("jmh.kernel", "quad", "kernel"),
                Arguments.of("jmh.bogus", "1", "jmh.bogus"),
                Arguments.of("jmh.workingSet", "100TiB", "leave room in memory"),
                Arguments.of("membound.nominalBandwidth", "fast", "nominalBandwidth"));
    }

    @ParameterizedTest(name = "{0}={1}")
    @MethodSource("badInput")
    void shouldRefuseBadInputWithOneLineAndStatusTwo(String property, String value, String named) {
        Properties properties = new Properties();
        properties.setProperty(property, value);
        properties.setProperty("jmh.include", properties.getProperty("jmh.include", "Triad"));

        Run run = run(properties, "-f", "0", "-wi", "0", "-i", "1", "-r", "10ms");

        assertEquals(2, run.status(), run::all);
        assertEquals(1, run.err().strip().lines().count(), run::all);
        assertTrue(run.err().contains(named), run::all);
    }

    static Stream<Arguments> badComputeInput() {
        return Stream.of(
                Arguments.of("ProductBenchmark", "jmh.products", "12x3:nn", "shape=12x3:nn"),
                Arguments.of("ProductBenchmark", "jmh.products", "4x4x4:nn+4x4x4:nn", "repeat"),
                Arguments.of("ElementwiseBenchmark", "jmh.operation", "swish", "operation=swish"),
                Arguments.of("ElementwiseBenchmark", "jmh.row", "0", "row=0"));
    }

    @ParameterizedTest(name = "{1}={2}")
    @MethodSource("badComputeInput")
    void shouldRefuseABadProductOrOperationBeforeAnyForkRuns(String include, String property, String value,
            String named) throws IOException {
        Properties properties = new Properties();
        properties.setProperty("jmh.include", include);
        properties.setProperty(property, value);

        Run run = run(properties, "-f", "0", "-wi", "0", "-i", "1", "-r", "10ms");

        assertEquals(2, run.status(), run::all);
        assertEquals(1, run.err().strip().lines().count(), run::all);
        assertTrue(run.err().contains(named), run::all);
        Path jmh = results.resolve("results").resolve("jmh");
        if (Files.isDirectory(jmh)) {
            try (Stream<Path> files = Files.list(jmh)) {
                assertEquals(0, files.count(), "nothing written");
            }
        }
    }

    private void assertJsonWritten(Run run, String benchmark) throws IOException {
        try (Stream<Path> files = Files.list(results.resolve("results").resolve("jmh"))) {
            List<Path> json = files.filter(f -> f.toString().endsWith(".json")).toList();
            assertEquals(1, json.size(), run::all);
            String text = Files.readString(json.get(0));
            assertTrue(text.contains(benchmark), () -> text);
            assertTrue(text.contains("\"rawDataHistogram\""), () -> text);
        }
    }
}
