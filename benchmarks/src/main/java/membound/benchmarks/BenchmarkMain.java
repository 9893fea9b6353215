package membound.benchmarks;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;

import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.VerboseMode;

import membound.benchmarks.results.Nominal;
import membound.benchmarks.results.ResultTable;
import membound.benchmarks.suite.JmhProperties;
import membound.benchmarks.suite.LoadWatch;
import membound.benchmarks.suite.SuitePlan;
import membound.benchmarks.suite.SuiteRunner;
import membound.vocabulary.BadInputException;
import membound.hardware.host.Host;
import membound.hardware.host.HostDetector;
import membound.hardware.host.LoadMonitor;

/**
 * The suite's entry point, behind both {@code mvn -pl benchmarks jmh:run} and
 * {@code java -jar benchmarks/target/benchmarks.jar}.
 *
 * <p>It takes JMH's own command line, plus {@code jmh.*} system properties (which is how {@code jmh:run}
 * passes {@code -Djmh.include=Triad}), resolves cache levels and thread counts on this host so every result
 * names its exact sizes, sizes the forks' heap, runs JMH, writes JMH's JSON under {@code results/jmh/}, and
 * ends with the bandwidth table against the host's nominal bandwidth. See {@link SuitePlan} for what runs
 * when nothing is selected. {@code -Djmh.include=GpuSuite} runs the GPU suite instead
 * ({@link membound.benchmarks.gpu.GpuSuiteRun}: CUDA events, not JMH, time it).
 *
 * <p>Exit status: 0, 2 for bad input (one line on stderr), 1 if a benchmark failed (e.g. validation).
 */
public final class BenchmarkMain {

    /** The JDK prints this for every JVM that resolves an incubator module; it tells the user nothing. */
    static final String INCUBATOR_WARNING = "WARNING: Using incubator modules";
    static final String VECTOR_MODULE = "jdk.incubator.vector";

    private BenchmarkMain() {
    }

    public static void main(String[] args) {
        if (ModuleLayer.boot().findModule(VECTOR_MODULE).isEmpty()) {
            // FLOP counts depend on the lanes of the Vector API's preferred species, which only a JVM with
            // the module can tell: start one, and keep its incubator notice off the screen.
            System.exit(relaunchWithVectorModule(args));
        }
        PrintStream out = filtered(System.out);
        PrintStream err = filtered(System.err);
        System.setOut(out);
        System.setErr(err);
        System.exit(run(args, System.getProperties(), out, err));
    }

    static int relaunchWithVectorModule(String[] args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("--add-modules=" + VECTOR_MODULE);
        // The GPU suite calls the CUDA driver through the FFM API's restricted methods.
        command.add("--enable-native-access=ALL-UNNAMED");
        command.addAll(java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(BenchmarkMain.class.getName());
        command.addAll(List.of(args));
        try {
            Process child = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.INHERIT)
                    .redirectOutput(ProcessBuilder.Redirect.INHERIT).start();
            PrintStream err = filtered(System.err);
            child.getErrorStream().transferTo(err);
            err.flush();
            return child.waitFor();
        } catch (IOException e) {
            System.err.println("membound: cannot start a JVM with " + VECTOR_MODULE + ": " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        }
    }

    /** Runs the suite as {@code main} does; returns the exit status. */
    public static int run(String[] args, Properties properties, PrintStream out, PrintStream err) {
        if (isJmhInfoRequest(args)) {
            try {
                org.openjdk.jmh.Main.main(args);
                return 0;
            } catch (Exception e) {
                err.println("membound: " + e.getMessage());
                return 1;
            }
        }
        if (membound.benchmarks.gpu.GpuSuiteRun.isSelected(properties)) {
            return membound.benchmarks.gpu.GpuSuiteRun.run(properties, out, err);
        }
        try {
            CommandLineOptions command = new CommandLineOptions(JmhProperties.arguments(args, properties));
            Host host = HostDetector.detect();
            SuitePlan plan = SuitePlan.of(command, host, properties);
            out.println(plan.describe());
            if (Boolean.parseBoolean(properties.getProperty("membound.dryRun", "false"))) {
                for (SuitePlan.Step step : plan.steps()) {
                    out.println("step " + step.benchmark().simpleName() + " placement=" + step.placement().name()
                            + " threads=" + step.threads()
                            + " workingSet=" + String.join(",", step.workingSets().stream()
                                    .map(membound.benchmarks.sizing.WorkingSet::parameter).toList()));
                }
                return 0;
            }

            // JMH copies each fork's stderr into its output: the fork's incubator notice comes through here.
            // Other processes' cpu time is watched during every benchmark, so the table flags load-seen as calibrate does.
            java.util.Optional<LoadMonitor> monitor = LoadMonitor.start(Path.of("/proc"), host.logicalCpus());
            LoadWatch watch = new LoadWatch(OutputFormatFactory.createFormatInstance(filtered(out),
                    command.verbosity().orElse(VerboseMode.NORMAL)), monitor.orElse(null));
            List<RunResult> results;
            try {
                results = SuiteRunner.run(plan, watch);
            } finally {
                monitor.ifPresent(LoadMonitor::close);
            }
            Path resultFile = SuiteRunner.writeJson(results, plan.resultFile().orElseThrow());
            ResultTable.print(out, results, Nominal.of(host, properties.getProperty("membound.nominalBandwidth")), watch);
            out.println("JMH results: " + resultFile);
            return 0;
        } catch (CommandLineOptionException e) {
            err.println("membound: bad JMH option: " + e.getMessage());
            return 2;
        } catch (BadInputException e) {
            err.println("membound: " + e.getMessage());
            return 2;
        } catch (RunnerException e) {
            err.println("membound: a benchmark failed: " + rootMessage(e));
            return 1;
        } catch (IOException e) {
            err.println("membound: cannot write results: " + e.getMessage());
            return 1;
        }
    }

    private static boolean isJmhInfoRequest(String[] args) {
        Set<String> info = Set.of("-h", "-l", "-lp", "-lprof", "-lrf", "-help", "--help");
        for (String arg : args) {
            if (info.contains(arg)) {
                return true;
            }
        }
        return false;
    }

    private static String rootMessage(Throwable e) {
        Throwable cause = e;
        Set<Throwable> seen = new LinkedHashSet<>();
        while (cause.getCause() != null && seen.add(cause)) {
            cause = cause.getCause();
        }
        return cause.getMessage() != null ? cause.getMessage() : cause.toString();
    }

    /** A stream that passes everything but the incubator-module notice, line by line. */
    static PrintStream filtered(PrintStream target) {
        return new PrintStream(new OutputStream() {
            private final java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();

            @Override
            public synchronized void write(int b) {
                line.write(b);
                if (b == '\n') {
                    flushLine();
                }
            }

            @Override
            public synchronized void flush() {
                if (line.size() > 0 && !startsLikeWarning()) {
                    flushLine();
                }
                target.flush();
            }

            private boolean startsLikeWarning() {
                String text = line.toString(StandardCharsets.UTF_8);
                return INCUBATOR_WARNING.startsWith(text) || text.startsWith(INCUBATOR_WARNING);
            }

            private void flushLine() {
                String text = line.toString(StandardCharsets.UTF_8);
                line.reset();
                if (!text.startsWith(INCUBATOR_WARNING)) {
                    target.print(text);
                }
            }
        }, true, StandardCharsets.UTF_8);
    }
}
