package membound.calibrator.run;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import membound.benchmarks.suite.SuiteBenchmark;
import membound.benchmarks.suite.SuiteRequest;
import membound.calibrator.store.ProfileStore;
import membound.profile.Profile;
import membound.profile.ProfileJson;
import membound.profile.Quality;

/**
 * A calibration on a shared machine, with a fork that dies, and interrupted: a run that shared the machine is
 * flagged, a fork's death is reported with its cause, and an interrupted or failed calibration leaves every
 * earlier profile as it was and no partial one behind.
 */
class CalibrationReliabilityTest {

    @TempDir
    Path profiles;

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static Process start(Class<?> main, String... args) throws IOException {
        List<String> command = new java.util.ArrayList<>(List.of(java(), "--add-modules=jdk.incubator.vector",
                "-Xmx256m", "-Djmh.ignoreLock=true", "-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }

    private static void awaitLine(Process process, String prefix) throws IOException {
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            if (line.startsWith(prefix)) {
                return;
            }
        }
        throw new AssertionError("the process ended before printing " + prefix);
    }

    private Calibrator.Outcome calibrate(Options settings) {
        Calibrator.Request request = Calibrator.Request.builder(CalibrationMode.QUICK, new ProfileStore(profiles))
                .commandLine("membound calibrate (test)").memboundVersion("test").build();
        return Calibrator.run(request, new PrintWriter(new StringWriter(), true), cpus -> List.of(
                SuiteRequest.of(SuiteBenchmark.STREAM).with("kernel", "TRIAD").with("workingSet", "32MiB")
                        .with("threads", "1").with("elementType", "double").with("implementation", "vector")),
                settings);
    }

    /**
     * Starts the hog as another user's process would run: not a child of this JVM (whose whole process tree a
     * calibration counts as its own), by letting a shell start it in the background and exit.
     */
    private ProcessHandle startDetachedHog() throws Exception {
        Path log = profiles.resolve("hog.log");
        String command = String.join(" ", List.of(java(), "-Xmx512m", "--add-modules=jdk.incubator.vector", "-cp",
                "'" + System.getProperty("java.class.path") + "'", HogMain.class.getName()))
                + " > '" + log + "' 2>&1 & echo $!";
        Process shell = new ProcessBuilder("sh", "-c", command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        long pid = Long.parseLong(new String(shell.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim());
        shell.waitFor(10, TimeUnit.SECONDS);
        ProcessHandle hog = ProcessHandle.of(pid).orElseThrow(() -> new AssertionError("the hog did not start"));
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!(Files.exists(log) && Files.readString(log).contains("hogging"))) {
            if (System.nanoTime() > until || !hog.isAlive()) {
                throw new AssertionError("the hog did not start: " + (Files.exists(log) ? Files.readString(log) : ""));
            }
            Thread.sleep(100);
        }
        Files.delete(log);
        return hog;
    }

    @Test
    void shouldFlagACalibrationThatSharedTheMachineWithABandwidthHog() throws Exception {
        ProcessHandle hog = startDetachedHog();
        try {
            Calibrator.Outcome outcome = calibrate(new OptionsBuilder().forks(0).warmupIterations(0)
                    .measurementIterations(2).measurementTime(TimeValue.milliseconds(600)).shouldFailOnError(true)
                    .build());

            Quality.Flag flag = outcome.profile().quality().flags().stream()
                    .filter(f -> f.code().equals("load-seen")).findFirst()
                    .orElseThrow(() -> new AssertionError("no load-seen flag: " + outcome.profile().quality()));
            assertTrue(flag.message().contains("Triad"), flag::message);
        } finally {
            hog.destroyForcibly();
            hog.onExit().get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void shouldReportAForkThatDiesWithItsCauseAndWriteNothing() {
        CalibrationFailedException e = assertThrows(CalibrationFailedException.class, () -> calibrate(
                new OptionsBuilder().forks(1).warmupIterations(0).measurementIterations(1)
                        .measurementTime(TimeValue.milliseconds(100)).jvmArgsAppend("-Xmx48m")
                        .shouldFailOnError(true).build()));

        assertTrue(e.getMessage().startsWith("calibration failed, no profile written: "), e.getMessage());
        assertTrue(e.getMessage().contains("heap") || String.join("\n", e.jmhTail()).contains("OutOfMemoryError"),
                () -> e.getMessage() + "\n" + String.join("\n", e.jmhTail()));
        assertEquals(List.of(), new ProfileStore(profiles).list());
    }

    @ParameterizedTest(name = "killed with {0}")
    @ValueSource(strings = {"SIGTERM", "SIGKILL"})
    void shouldLeaveEarlierProfilesIntactAndNoPartialOneWhenInterrupted(String signal) throws Exception {
        Path earlier = Files.copy(Path.of(rootOf("results/profiles/examples/dgx-spark-example.json")),
                profiles.resolve("spark-example-20251129T120000Z.json"));
        byte[] earlierBytes = Files.readAllBytes(earlier);
        String marker = UUID.randomUUID().toString();

        Process calibration = start(CalibrateMain.class, profiles.toString(), marker);
        awaitLine(calibration, "[1/");
        Thread.sleep(1500);
        if (signal.equals("SIGKILL")) {
            calibration.destroyForcibly();
        } else {
            calibration.destroy();
        }
        assertTrue(calibration.waitFor(30, TimeUnit.SECONDS), "the calibration must end");
        awaitNoProcessWith(marker);

        try (Stream<Path> files = Files.list(profiles)) {
            assertEquals(List.of(earlier), files.toList(), "only the earlier profile, no partial or temporary file");
        }
        assertArrayEquals(earlierBytes, Files.readAllBytes(earlier));
        Profile read = ProfileJson.read(earlier);
        assertEquals("spark-example", read.host().hostname());
    }

    /** The forks of a killed calibration see their link to it break and exit; wait until they have. */
    private static void awaitNoProcessWith(String marker) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < until) {
            boolean alive = ProcessHandle.allProcesses().anyMatch(p -> p.info().arguments()
                    .map(args -> String.join(" ", args).contains(marker)).orElse(false));
            if (!alive) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("a fork of the killed calibration is still running");
    }

    private static String rootOf(String relative) {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(relative))) {
                return dir.resolve(relative).toString();
            }
        }
        throw new IllegalStateException("tests must run inside the repository: " + relative);
    }
}
