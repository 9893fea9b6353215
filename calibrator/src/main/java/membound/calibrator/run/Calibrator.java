package membound.calibrator.run;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;

import membound.benchmarks.sizing.CacheSizes;
import membound.benchmarks.suite.SuitePlan;
import membound.benchmarks.suite.SuiteRequest;
import membound.benchmarks.suite.SuiteRunner;
import membound.calibrator.store.ProfileStore;
import membound.hardware.BadInputException;
import membound.hardware.catalog.Catalog;
import membound.hardware.catalog.PlatformSpec;
import membound.hardware.host.Host;
import membound.hardware.host.HostDetector;
import membound.hardware.units.Units;
import membound.profile.Profile;
import membound.profile.Provenance;

/**
 * A calibration: detect the host, run the mode's benchmarks through JMH's Runner API, build the profile, and
 * store it (with JMH's raw JSON beside it). Nothing is written before every benchmark has run and passed
 * its checks, and the profile appears under its name in one atomic step: an interrupted calibration leaves
 * earlier profiles as they were and no partial one behind.
 */
public final class Calibrator {

    /**
     * What to calibrate.
     *
     * @param platform a catalog id to use instead of the detected platform, if given
     * @param nominalBandwidth a nominal memory bandwidth such as {@code 273GB/s}, if given
     */
    public record Request(CalibrationMode mode, Optional<String> platform, Optional<String> nominalBandwidth,
            boolean hugePages, ProfileStore store, String commandLine, String memboundVersion) {
    }

    /** What a calibration produced. */
    public record Outcome(Path profileFile, Profile profile, Duration elapsed) {
    }

    private Calibrator() {
    }

    /**
     * Runs a calibration, printing one progress line per measurement to {@code progress}.
     *
     * @throws BadInputException for an unknown platform or a malformed bandwidth, before anything runs
     * @throws CalibrationFailedException when a benchmark fails (a forked VM dies, a result fails validation)
     */
    public static Outcome run(Request request, PrintWriter progress) {
        return run(request, progress, request.mode()::requests, request.mode().settings());
    }

    /**
     * As {@link #run(Request, PrintWriter)}, with the benchmarks and JMH settings given instead of taken from
     * the mode (which still names the run in the profile): how tests calibrate with tiny working sets.
     *
     * @param requests the benchmarks to run, given the host's logical cpu count
     */
    static Outcome run(Request request, PrintWriter progress, java.util.function.IntFunction<List<SuiteRequest>> requests,
            Options settings) {
        Instant started = Instant.now();
        Catalog catalog = Catalog.builtIn();
        Host host = HostDetector.detect();
        if (request.platform().isPresent()) {
            host = catalog.withPlatform(host, request.platform().get());
        }
        Optional<PlatformSpec> platform = catalog.match(host);
        ProfileBuilder.NominalBandwidth nominal = nominal(request, platform, host);
        CacheSizes caches = CacheSizes.of(host);

        SuitePlan plan = SuitePlan.of(requests.apply(host.logicalCpus()), settings, host,
                request.store().directory().resolve("unused.jmh.json"), request.hugePages());
        java.util.Map<String, String> recorded = new java.util.TreeMap<>(request.mode().recordedSettings());
        recorded.put("jvm.transparentHugePages", Boolean.toString(plan.transparentHugePages()));
        progress.println("membound calibrate --" + request.mode().label() + " on " + host.hostname() + " ("
                + host.cpu().modelName() + ", " + host.logicalCpus() + " cpus, caches from " + caches.source()
                + "): " + trials(plan) + " measurements");
        progress.flush();

        ProgressFormat format = new ProgressFormat(progress, trials(plan));
        List<RunResult> results;
        try {
            results = SuiteRunner.run(plan, format);
        } catch (RunnerException e) {
            throw new CalibrationFailedException(rootMessage(e), format.jmhTail());
        }
        if (results.size() < trials(plan)) {
            throw new CalibrationFailedException("only " + results.size() + " of " + trials(plan)
                    + " measurements completed", format.jmhTail());
        }
        Profile profile = new ProfileBuilder(host, caches, platform, nominal, recorded, request.commandLine(),
                started, request.memboundVersion()).build(results);
        Path file = request.store().save(profile, rawJson(results));
        // The stored profile names its raw result file: return exactly what was written.
        return new Outcome(file, membound.profile.ProfileJson.read(file), Duration.between(started, Instant.now()));
    }

    private static ProfileBuilder.NominalBandwidth nominal(Request request, Optional<PlatformSpec> platform, Host host) {
        if (request.nominalBandwidth().isPresent()) {
            String given = request.nominalBandwidth().get();
            return new ProfileBuilder.NominalBandwidth(Units.parseBandwidth("--nominal-bandwidth", given),
                    Provenance.user("--nominal-bandwidth " + given), null);
        }
        return platform.flatMap(spec -> spec.nominalHostMemoryBandwidth()
                        .map(figure -> new ProfileBuilder.NominalBandwidth(figure.value(),
                                Provenance.datasheet(figure.source()), null)))
                .orElseGet(() -> new ProfileBuilder.NominalBandwidth(null, null, platform.isPresent()
                        ? "the catalog entry for " + platform.get().name() + " has no memory bandwidth"
                        : "no catalog entry matches this host (" + host.cpu().modelName()
                                + "); give one with --nominal-bandwidth or --platform"));
    }

    /** Benchmark runs in the plan: the product of each step's parameter value counts. */
    static int trials(SuitePlan plan) {
        int trials = 0;
        for (SuitePlan.Step step : plan.steps()) {
            int product = 1;
            for (String name : step.benchmark().parameterNames()) {
                product *= step.options().getParameter(name).hasValue()
                        ? step.options().getParameter(name).get().size() : step.benchmark().defaults(name).length;
            }
            trials += product;
        }
        return trials;
    }

    private static byte[] rawJson(List<RunResult> results) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream json = new PrintStream(bytes, false, StandardCharsets.UTF_8)) {
            ResultFormatFactory.getInstance(ResultFormatType.JSON, json).writeOut(results);
        }
        return bytes.toByteArray();
    }

    private static String rootMessage(Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause.getMessage() != null ? cause.getMessage() : cause.toString();
    }
}
