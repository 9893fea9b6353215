package membound.calibrator.run;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;

import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import membound.benchmarks.suite.SuiteBenchmark;
import membound.benchmarks.suite.SuiteRequest;
import membound.calibrator.store.ProfileStore;

/**
 * A calibration in a process of its own, for {@link CalibrationReliabilityTest} to interrupt: writes into
 * {@code args[0]}; its forks carry {@code -Dmembound.test.marker=args[1]} so the test can find them.
 */
public final class CalibrateMain {

    public static void main(String[] args) {
        Calibrator.Request request = Calibrator.Request
                .builder(CalibrationMode.QUICK, new ProfileStore(Path.of(args[0])))
                .commandLine("membound calibrate (interrupted by a test)").memboundVersion("test").build();
        Calibrator.run(request, new PrintWriter(System.out, true), cpus -> List.of(
                SuiteRequest.of(SuiteBenchmark.STREAM).with("kernel", "TRIAD", "COPY", "SUM")
                        .with("workingSet", "16MiB").with("threads", "1").with("elementType", "double")
                        .with("implementation", "vector")),
                new OptionsBuilder().forks(1).warmupIterations(0).measurementIterations(5)
                        .measurementTime(TimeValue.seconds(1)).jvmArgsAppend("-Dmembound.test.marker=" + args[1])
                        .shouldFailOnError(true).build());
    }
}
